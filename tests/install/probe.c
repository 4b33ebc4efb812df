/* A program of a library user (tests/install_test.sh): probes a position given on the command
 * line in the database folder given, and prints its value and best moves by both metrics. */
#include <morabaraba.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s FOLDER POSITION\n", argv[0]);
    return 2;
  }
  const char* folders[] = {argv[1]};
  mora_db* db = NULL;
  mora_result r;
  char rule[MORA_MOVE_CHARS], pure[MORA_MOVE_CHARS];
  if (mora_open(folders, 1, &db) != MORA_OK || mora_probe(db, argv[2], &r) != MORA_OK ||
      mora_best_move_by(db, argv[2], MORA_METRIC_RULE, rule, sizeof rule) != MORA_OK ||
      mora_best_move_by(db, argv[2], MORA_METRIC_PURE, pure, sizeof pure) != MORA_OK) {
    fprintf(stderr, "%s\n", mora_last_error());
    mora_close(db);
    return 1;
  }
  printf("%s wdl %d distance %d best %s pure %s\n", mora_version(), r.wdl, r.distance, rule, pure);
  mora_close(db);
  return 0;
}
