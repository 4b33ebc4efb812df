#include "tools/static_page.h"

#include <cctype>
#include <cstdio>
#include <sstream>

#include "game/notation.h"
#include "tools/probe_answer.h"
#include "tools/utf8.h"

namespace mora::tools {
namespace {

std::string html_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A query value as application/x-www-form-urlencoded writes it: a space as '+', what is not an
// unreserved character as %XX.
std::string query_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else if (c == ' ') {
      out += '+';
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", u);
      out += hex;
    }
  }
  return out;
}

}  // namespace

std::string static_position_html(const Database& db, std::string_view position) {
  const Game& game = db.game();
  const Board& board = game.board();
  std::ostringstream out;
  out << "<section id=\"static\"><h2>" << html_escaped(position) << "</h2>";
  try {
    require_utf8(position);
    const Position pos = parse_position(position, db.rules());
    const ProbeResult value = db.probe(pos);
    out << "<pre>" << html_escaped(diagram(board, pos)) << "</pre><p id=\"static-value\">"
        << colour_title(pos.side_to_move) << " to move: " << html_escaped(to_text(value)) << "</p>";
    if (const Outcome o = game.outcome(pos); o != Outcome::kOngoing) {
      out << "<p>Game over: " << html_escaped(game_over_reason(game, pos, o)) << "</p>";
    } else {
      out << "<ol id=\"static-moves\">";
      for (const auto& [move, result] : db.moves(pos)) {
        const std::string after = to_string(game.make(pos, move), board);
        out << "<li><a href=\"/?position=" << query_escaped(after)
            << "&amp;rules=" << query_escaped(db.rules().name) << "\">"
            << html_escaped(to_string(board, move)) << "</a>: " << html_escaped(to_text(result))
            << "</li>";
      }
      out << "</ol>";
    }
  } catch (const std::exception& e) {
    out << "<p>" << html_escaped(e.what()) << "</p>";
  }
  out << "</section>";
  return out.str();
}

}  // namespace mora::tools
