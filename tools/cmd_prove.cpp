#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "db/proof_search.h"
#include "db/proof_store.h"
#include "db/value_names.h"
#include "game/notation.h"
#include "solver/resource_usage.h"
#include "tools/options.h"
#include "tools/probe_answer.h"
#include "tools/utf8.h"

namespace mora::tools {

namespace {

// One proved answer: the pure value, the value under the rules where they have a ply limit,
// and what it cost.
struct Proof {
  ProvedValue pure, under_the_rules;
  bool has_rule_part = false;
  // Why the value under the rules is not known where a limit is not the reason: a WDL-only
  // folder's leaf whose win or loss at its count needs the plies to the next mill.
  std::string rule_error;
  std::uint64_t nodes = 0;
  double seconds = 0, cpu_seconds = 0;

  nlohmann::json json() const {
    nlohmann::json j;
    j["value"] = pure ? nlohmann::json(wdl_name(wdl_of(*pure))) : nlohmann::json();
    j["rule_value"] = has_rule_part && pure && under_the_rules
                          ? nlohmann::json(rule_wdl_name(rule_value_of(*pure, *under_the_rules)))
                          : nlohmann::json();
    if (!rule_error.empty()) j["rule_value_error"] = rule_error;
    j["known"] = pure && (!has_rule_part || under_the_rules);
    j["nodes"] = nodes;
    j["seconds"] = seconds;
    j["cpu_seconds"] = cpu_seconds;
    return j;
  }
  std::string text() const {
    if (!pure) return "unknown within the limit";
    std::string t = wdl_name(wdl_of(*pure));
    if (has_rule_part)
      t += under_the_rules ? std::string(", under the ply limit ") +
                                 rule_wdl_name(rule_value_of(*pure, *under_the_rules))
                           : ", under the ply limit unknown " +
                                 (rule_error.empty() ? "within the limit" : "(" + rule_error + ")");
    char cost[96];
    std::snprintf(cost, sizeof cost, " (%llu nodes, %.2f s)",
                  static_cast<unsigned long long>(nodes), seconds);
    return t + cost;
  }
};

}  // namespace

int run_prove(const std::vector<std::string>& args) {
  po::options_description options("prove options");
  add_database_option(options);
  options.add_options()("pure", "only the pure value (the game without the ply limit)")(
      "moves", "also prove the value of every move of each position (from the side to move)")(
      "memory", po::value<double>()->default_value(1.0), "GiB for the transposition table")(
      "decode", po::value<double>()->default_value(0.0),
      "GiB of moving tables decoded whole as the search reaches them (leaves then cost a "
      "memory read, not a block's decompression)")(
      "threads", po::value<int>()->default_value(1),
      "threads that search at once (the values are the same with any number; the node counts "
      "only with one)")(
      "max-nodes", po::value<std::uint64_t>()->default_value(0),
      "stop each search after this many nodes (0: no limit); a stopped search answers "
      "\"unknown within the limit\", never a guess")(
      "max-seconds", po::value<double>()->default_value(0.0),
      "stop each search after this many seconds (0: no limit)")(
      "proof", po::value<std::string>(),
      "the proof file read before searching and written after each position (default: "
      "proofs.mpf in the first --db folder)")("no-save", "read the proof file but write none")(
      "save-depth", po::value<int>()->default_value(6),
      "plies below each position whose proved bounds the file keeps, besides every proof that "
      "took 65,536 nodes or more")(
      "checkpoint-minutes", po::value<double>()->default_value(5.0),
      "during a long search, write the proofs found so far this often, so that a search "
      "started again after a kill resumes from them")("json", "one JSON object per position")(
      "quiet,q", "no progress lines")("position", po::value<std::vector<std::string>>(),
                                      "positions (else one per line on stdin)");
  po::positional_options_description positional;
  positional.add("position", -1);
  auto vm = parse(
      "prove",
      "--db DIR [--pure] [--moves] [--threads T] [--memory GIB] [--decode GIB] [--max-nodes N]\n"
      "[--max-seconds S] [--proof FILE] [--no-save] [--save-depth D] [--json] [-q]\n"
      "[POSITION ...]\n\n"
      "Proves the value of positions by searching forward to the positions the\n"
      "folder's tables hold: a placing position of a folder that holds the moving\n"
      "phase only (the 12-cow start, say), where probe has no table to read. An\n"
      "alpha-beta search over win/draw/loss with a transposition table keyed by\n"
      "the canonical index; its leaves are probes of the tables. The pure value,\n"
      "and where the rules have a ply limit the value under it at the position's\n"
      "count (JSON: value and rule_value, as probe --json's). Each position's\n"
      "later searches (--moves) reuse what its first one proved. The same folder\n"
      "and options give the same values and node counts on every run.\n\n"
      "What it proved is kept in a proof file (docs/FORMAT.md): the bounds of the\n"
      "positions down to --save-depth plies and of every large subtree. Probe,\n"
      "serve and later proves read it, so a proved position is answered at once,\n"
      "and a search killed and started again resumes from its last checkpoint.",
      options, args, &positional);
  if (!vm) return 0;
  Database db(database_folders(*vm));
  const bool json = vm->count("json"), quiet = vm->count("quiet"), with_moves = vm->count("moves");
  const bool rule_part = db.rules().ply_limit > 0 && !vm->count("pure");
  const double memory = (*vm)["memory"].as<double>(), decode = (*vm)["decode"].as<double>();
  if (!(memory > 0 && memory <= 1024)) throw po::error("--memory: GiB above 0, at most 1024");
  if (!(decode >= 0 && decode <= 1024)) throw po::error("--decode: GiB from 0 to 1024");
  const SearchLimits limits{(*vm)["max-nodes"].as<std::uint64_t>(),
                            (*vm)["max-seconds"].as<double>()};
  if (limits.max_seconds < 0) throw po::error("--max-seconds: 0 or more");
  const int threads = (*vm)["threads"].as<int>();
  if (threads < 1 || threads > 256) throw po::error("--threads: 1 to 256");
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  const Board& board = db.game().board();
  const std::filesystem::path proof_file =
      vm->count("proof") ? std::filesystem::path((*vm)["proof"].as<std::string>())
                         : database_folders(*vm).front() / kProofFileName;
  const bool save = !vm->count("no-save");
  const int save_depth = (*vm)["save-depth"].as<int>();
  if (save_depth < 0 || save_depth > 24) throw po::error("--save-depth: 0 to 24 plies");
  const double checkpoint_seconds = 60 * (*vm)["checkpoint-minutes"].as<double>();
  if (!(checkpoint_seconds > 0)) throw po::error("--checkpoint-minutes: above 0");
  ProofStore store = std::filesystem::exists(proof_file) ? ProofStore::read(proof_file, db.rules())
                                                         : ProofStore(db.rules());
  if (!quiet && store.size())
    std::fprintf(stderr, "prove: %zu proved bounds read from %s\n", store.size(),
                 proof_file.c_str());
  // Proofs of 2^16 nodes or more are kept whatever their depth: a restart skips them.
  constexpr int kKeptLog2Nodes = 17;

  // One search for every position: what one proves serves the next.
  ProofSearch search(db, {.table_bytes = static_cast<std::size_t>(memory * kGiB),
                          .decode_bytes = static_cast<std::uint64_t>(decode * kGiB),
                          .threads = threads});
  search.use(&store);
  double last_save = 0;  // the search's seconds at the last checkpoint
  auto answer = [&](const std::string& text) {
    require_utf8(text);
    const Position pos = parse_position(text, db.rules());
    const auto keep = [&](const Position& p, bool lines) {
      if (!save) return;
      store.add(search.proved(kKeptLog2Nodes));
      if (lines) {
        store.add(search.lines(p, SearchQuestion::kPure, save_depth));
        if (rule_part) store.add(search.lines(p, SearchQuestion::kUnderTheRules, save_depth));
      }
      store.write(proof_file);
    };
    search.on_progress([&](const SearchStats& s) {
      if (!quiet)
        std::fprintf(stderr, "  %.1f M nodes (%.2f M/s), %.1f M probes, %.0f s\n",
                     static_cast<double>(s.nodes) / 1e6,
                     static_cast<double>(s.nodes) / 1e6 / std::max(s.seconds, 1e-9),
                     static_cast<double>(s.probes) / 1e6, s.seconds);
      if (s.seconds - last_save >= checkpoint_seconds) {
        last_save = s.seconds;
        keep(pos, false);
      }
    });
    auto prove = [&](const Position& p) {
      Proof proof;
      proof.has_rule_part = rule_part;
      const std::uint64_t nodes = search.stats().nodes;
      const double seconds = search.stats().seconds, cpu = solver::process_cpu_seconds();
      proof.pure = search.prove(p, SearchQuestion::kPure, limits);
      if (rule_part && proof.pure) {
        try {
          proof.under_the_rules = search.prove(p, SearchQuestion::kUnderTheRules, limits,
                                               std::min(*proof.pure, 0), std::max(*proof.pure, 0));
        } catch (const DistancesNotInFolder& e) {
          proof.rule_error = e.what();
        }
      }
      proof.nodes = search.stats().nodes - nodes;
      proof.seconds = search.stats().seconds - seconds;
      proof.cpu_seconds = solver::process_cpu_seconds() - cpu;
      return proof;
    };
    const Proof root = prove(pos);
    const auto peak_mib = [] {
      return static_cast<double>(solver::whole_run_peak_resident_bytes()) / (1 << 20);
    };
    if (!json)
      std::cout << text << ": " << root.text() << ", peak RSS " << peak_mib()
                << " MiB (proved by search)\n";
    nlohmann::json moves = nlohmann::json::array();
    if (with_moves) {
      MoveList list;
      db.game().generate(pos, list);
      for (const Move& m : list) {
        const Position child = db.game().make(pos, m);
        Proof p;
        p.has_rule_part = rule_part;
        if (child.too_few_cows(child.side_to_move)) {
          p.pure = p.under_the_rules = 1;
        } else {
          p = prove(child);
          // From the side to move: the child's values are its other side's.
          if (p.pure) p.pure = -*p.pure;
          if (p.under_the_rules) p.under_the_rules = -*p.under_the_rules;
        }
        if (json) {
          nlohmann::json j = p.json();
          j["move"] = to_string(board, m);
          moves.push_back(j);
        } else {
          std::cout << "  " << to_string(board, m) << ": " << p.text() << '\n';
        }
      }
    }
    if (json) {
      nlohmann::json j = root.json();
      j["position"] = text;
      j["proved_by"] = "search";
      j["memory_bytes"] = search.memory_bytes();
      j["peak_rss_mib"] = peak_mib();
      if (with_moves) j["moves"] = moves;
      std::cout << dump_line(j) << '\n';
    }
    keep(pos, true);
    return root.pure && (!rule_part || root.under_the_rules);
  };
  return answer_positions(vm->count("position") ? (*vm)["position"].as<std::vector<std::string>>()
                                                : std::vector<std::string>{},
                          json, answer);
}

}  // namespace mora::tools
