#include <iostream>
#include <optional>

#include "db/database.h"
#include "game/notation.h"
#include "tools/options.h"
#include "tools/probe_answer.h"

namespace mora::tools {
namespace {

constexpr const char* kHelp =
    "Type a move in the notation of docs/RULES.md: a placement 'd6', a step or flight 'a1-a4',\n"
    "with the cow shot after a mill 'd6xg7' or 'b4-b2xf4'. Other commands:\n"
    "  value   the value of the position for you\n"
    "  hint    the best move (by the metric the database plays), with its value for you\n"
    "  moves   the legal moves, best first, each with its value for you\n"
    "  back    take back your last move (and the reply to it)\n"
    "  quit    leave the game\n";

std::string move_list(const Database& db, const Position& pos, Metric metric) {
  std::string list;
  for (const auto& [m, v] : db.moves(pos, metric)) {
    if (!list.empty()) list += ' ';
    list += to_string(db.game().board(), m);
  }
  return list;
}

// Every legal move with its value for the player who makes it, a line each, best first.
std::string valued_move_list(const Database& db, const Position& pos, Metric metric) {
  std::string list = "legal moves, best first";
  if (db.rules().ply_limit > 0)
    list += metric == Metric::kPure ? " by pure distance" : " under the ply limit";
  list += " (each with its value for you):\n";
  for (const auto& [m, v] : db.moves(pos, metric))
    list += "  " + to_string(db.game().board(), m) + ": " + to_text(v) + '\n';
  return list;
}

// The cow on `point`, in words ("a white cow"), or "" when the point is empty.
std::string cow_on(const Position& pos, Point point) {
  for (Color c : {kWhite, kBlack})
    if (pos.cows[c] & bit(point)) return std::string("a ") + colour_name(c) + " cow";
  return "";
}

// Why `text` is not a legal move at `pos`, beyond what the parser says (which explains a mill
// without its shot itself): a point taken, a cow that is not there, a step while placing.
std::string why_illegal(const Board& board, const Position& pos, const std::string& text) {
  const Color us = pos.side_to_move;
  const std::string move = text.substr(0, text.find('x'));  // the shots apart
  const auto dash = move.find('-');
  const std::string to = dash == std::string::npos ? move : move.substr(dash + 1);
  if (const auto p = board.find_point(to); p && !cow_on(pos, *p).empty())
    return to + " is taken (by " + cow_on(pos, *p) + "): a cow goes to an empty point";
  if (dash != std::string::npos && pos.in_hand[us] == 0)
    if (const auto from = board.find_point(move.substr(0, dash));
        from && !(pos.cows[us] & bit(*from)))
      return "you have no cow on " + move.substr(0, dash);
  if (pos.in_hand[us] > 0 && dash != std::string::npos)
    return "you still have cows in hand: place one on an empty point, as in d6";
  if (pos.in_hand[us] == 0 && dash == std::string::npos)
    return "all your cows are on the board: move one, as in a1-a4";
  return "";
}

// The game against the database: `human` plays one colour from the keyboard (stdin), the
// database the other with best play by `metric`.
class Match {
 public:
  Match(const Database& db, Color human, const Position& start, Metric metric)
      : db_(db), game_(db.game()), human_(human), metric_(metric), history_{start} {}

  void run() {
    std::cout << "You play " << colour_title(human_) << ". Type 'help' for the commands.\n";
    if (db_.rules().ply_limit > 0)
      std::cout << "I choose my moves "
                << (metric_ == Metric::kPure ? "by pure distance (as if there were no ply limit)"
                                             : "under the ply limit")
                << "; the game ends by the rules either way.\n";
    while (true) {
      const Position& pos = history_.back();
      std::cout << '\n' << diagram(game_.board(), pos);
      for (Color c : {kWhite, kBlack})
        if (game_.flies(pos, c))
          std::cout << colour_title(c) << " has " << pos.on_board(c)
                    << " cows and flies: moves a cow to any empty point\n";
      std::cout << "position: " << to_string(pos, game_.board()) << '\n';
      if (const Outcome o = game_.outcome(pos); o != Outcome::kOngoing) {
        std::cout << "game over: " << game_over_reason(game_, pos, o) << '\n';
        if (o != Outcome::kDraw)
          std::cout << (pos.side_to_move != human_ ? "You win.\n" : "I win.\n");
        if (!after_game_over()) return;
        continue;
      }
      if (pos.side_to_move != human_) {
        const Move m = *db_.best_move(pos, metric_);
        std::cout << "I play " << to_string(game_.board(), m) << '\n';
        history_.push_back(game_.make(pos, m));
      } else if (!human_turn(pos)) {
        return;
      }
    }
  }

 private:
  // The next command typed after `prompt`, trimmed and not empty; nullopt at the end of input.
  static std::optional<std::string> read_command(const std::string& prompt) {
    std::string line;
    while (true) {
      std::cout << prompt << "> " << std::flush;
      if (!std::getline(std::cin, line)) {
        std::cout << "\n";
        return std::nullopt;
      }
      const auto words = line.find_first_not_of(" \t");
      if (words != std::string::npos)
        return line.substr(words, line.find_last_not_of(" \t\r") - words + 1);
    }
  }

  // Once the game is over: 'back' takes the last move back (true), 'quit' or the end of input
  // leaves (false).
  bool after_game_over() {
    std::cout << "Type 'back' to take your last move back, or 'quit' to leave.\n";
    while (const auto text = read_command("game over")) {
      if (*text == "quit") return false;
      if (*text == "back" && take_back()) return true;
      std::cout << (*text == "back" ? "nothing to take back: 'quit' to leave\n"
                                    : "the game is over: 'back' or 'quit'\n");
    }
    return false;
  }

  // Reads commands until a move is played (true) or the player leaves (false).
  bool human_turn(const Position& pos) {
    while (true) {
      const auto command = read_command(std::string(colour_title(human_)) + " to move");
      if (!command || *command == "quit") return false;
      const std::string& text = *command;
      if (text == "help") {
        std::cout << kHelp;
      } else if (text == "value") {
        std::cout << "value for you: " << to_text(db_.probe(pos)) << '\n';
      } else if (text == "hint") {
        const auto ranked = db_.moves(pos, metric_);
        const auto& [best, value] = ranked.front();
        std::cout << "best move: " << to_string(game_.board(), best) << ": " << to_text(value)
                  << '\n';
      } else if (text == "moves") {
        std::cout << valued_move_list(db_, pos, metric_);
      } else if (text == "back") {
        if (!take_back()) {
          std::cout << "nothing to take back\n";
          continue;
        }
        return true;
      } else {
        try {
          history_.push_back(game_.make(pos, parse_move(game_, pos, text)));
          return true;
        } catch (const ParseError& e) {
          const std::string why = why_illegal(game_.board(), pos, text);
          std::cout << "illegal: " << e.what() << (why.empty() ? "" : "; " + why)
                    << "\nlegal moves: " << move_list(db_, pos, metric_) << '\n';
        }
      }
    }
  }

  // Back to the position before the human's last move.
  bool take_back() {
    for (std::size_t n = history_.size() - 1; n > 0; --n)
      if (history_[n - 1].side_to_move == human_) {
        history_.resize(n);
        return true;
      }
    return false;
  }

  const Database& db_;
  const Game& game_;
  const Color human_;
  const Metric metric_;
  std::vector<Position> history_;
};

}  // namespace

int run_play(const std::vector<std::string>& args) {
  po::options_description options("play options");
  add_database_option(options);
  options.add_options()("side", po::value<std::string>()->default_value(colour_name(kWhite)),
                        "the colour you play: white or black")(
      "position", po::value<std::string>(),
      "the position to start from (default: the start of the database's herd)")(
      "pure",
      "the database plays (and hints) the best moves by pure distance, as if there were no ply "
      "limit, instead of under it (docs/METRICS.md); the game still ends by the rules");
  auto vm =
      parse("play",
            "--db DIR [--side white|black] [--position P] [--pure]\n\n"
            "A game in the terminal against perfect play from the database. Moves are\n"
            "typed in the notation of docs/RULES.md; 'help' lists the other commands: value,\n"
            "hint, moves (the legal moves; both with their values for you), back (take a\n"
            "move back) and quit. At the end of the game, 'back' takes your last move back\n"
            "and 'quit' leaves.\n\n"
            "Best play (docs/METRICS.md): under the ply limit by default (the rule value,\n"
            "then for a win the fewest plies to the next mill, for a loss the most), by\n"
            "pure distance with --pure (the fastest win, the slowest loss).",
            options, args);
  if (!vm) return 0;
  const std::string side = (*vm)["side"].as<std::string>();
  if (side != colour_name(kWhite) && side != colour_name(kBlack))
    throw po::error("--side must be white or black, got '" + side + "'");
  const Database db(database_folders(*vm));
  Position start;
  if (vm->count("position")) {
    start = parse_position((*vm)["position"].as<std::string>(), db.rules());
  } else if (db.herd() > 0) {
    start = Position::start(db.herd());
  } else {
    throw po::error("the database holds the moving phase only: give --position");
  }
  db.probe(start);  // a position the database does not cover fails here, not mid-game
  Match(db, side == colour_name(kWhite) ? kWhite : kBlack, start,
        vm->count("pure") ? Metric::kPure : Metric::kUnderTheRules)
      .run();
  return 0;
}

}  // namespace mora::tools
