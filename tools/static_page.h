// The explorer's page for a browser without JavaScript, a search engine or a link preview: the
// position of the URL drawn as text, its value, and its moves as links to the positions they
// lead to, rendered by the server into the page's <noscript> element.
#pragma once

#include <string>
#include <string_view>

#include "db/database.h"

namespace mora::tools {

// The HTML of `position` under `db`'s rules: the position string, its diagram, the value from
// the side to move, and either why the game is over or every move (best first under the rules)
// as a link to the explorer's URL of the position it leads to, with its value. A position the
// database cannot answer gets the error's words instead. Everything from the request escaped.
std::string static_position_html(const Database& db, std::string_view position);

}  // namespace mora::tools
