/* An app author's program: probes one position through the installed libmorabaraba, found by
 * pkg-config (tests/probe_only_test.sh). Prints "<wdl> <distance> <best move>". */
#include <morabaraba.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: probe FOLDER POSITION\n");
    return 2;
  }
  const char* folders[] = {argv[1]};
  mora_db* db = NULL;
  mora_result result;
  char move[MORA_MOVE_CHARS];
  if (mora_open(folders, 1, &db) != MORA_OK || mora_probe(db, argv[2], &result) != MORA_OK ||
      mora_best_move(db, argv[2], move, sizeof move) != MORA_OK) {
    fprintf(stderr, "probe: %s\n", mora_last_error());
    mora_close(db);
    return 1;
  }
  printf("%s %d %s\n", mora_wdl_name(result.wdl), result.distance, move);
  mora_close(db);
  return 0;
}
