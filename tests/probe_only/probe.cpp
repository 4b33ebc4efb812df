// The C++ twin of probe.c: probes one position through mora::Database. Prints "<wdl> <distance>
// <best move>" as probe.c does.
#include <iostream>

#include "db/database.h"
#include "db/value_names.h"
#include "game/notation.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: probe_cxx FOLDER POSITION\n";
    return 2;
  }
  try {
    const mora::Database db({argv[1]});
    const mora::Position pos = mora::parse_position(argv[2]);
    const mora::ProbeResult r = db.probe(pos);
    std::cout << mora::wdl_name(r.wdl) << ' ' << r.distance << ' '
              << mora::to_string(db.game().board(), *db.best_move(pos)) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "probe_cxx: " << e.what() << '\n';
    return 1;
  }
}
