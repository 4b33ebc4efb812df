// Stopping a solve cleanly on request: SIGINT or SIGTERM sets a process-wide flag, and the
// solver looks at it at its safe points (where it writes checkpoints, and between units),
// where it saves what it has and throws Stopped. The tables a stopped run leaves are those of
// an uninterrupted one, and the same command continues.
#pragma once

#include <stdexcept>
#include <string>

namespace mora::solver {

// Installs the handlers of SIGINT and SIGTERM that request a stop; a second signal ends the
// process at once (the handlers are reset by the first). SIGINT is taken over even where the
// shell ignores it for a background job, so that `kill -INT` of a backgrounded solve stops it.
void install_stop_handlers();
// Requests a stop as the signal `signal` does (also for tests and embedding programs); 0
// withdraws the request, so that a program that caught Stopped can solve on.
void request_stop(int signal);
// Whether a stop was requested, and by which signal (0 if none).
bool stop_requested();
int stop_signal();

// Thrown at a safe point after a stop was requested; the checkpoint, if any, is written.
struct Stopped : std::runtime_error {
  explicit Stopped(int by_signal);
  int signal;
  std::string signal_name() const;  // "SIGINT", "SIGTERM"
  // 128 + the signal, as a shell reports a process the signal ended.
  int exit_status() const { return 128 + signal; }
};

// Throws Stopped when a stop was requested.
void stop_if_requested();

}  // namespace mora::solver
