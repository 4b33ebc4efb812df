#include "solver/stop.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <string>

namespace mora::solver {
namespace {

// Lock-free, so the handler may set it (a std::sig_atomic_t would do for the handler alone, but
// the solver's threads read it too).
std::atomic<int> requested_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int signal) {
  requested_signal.store(signal);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second signal takes the default action and ends the process at once.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void request_stop(int signal) {
  requested_signal.store(signal);
}

bool stop_requested() {
  return requested_signal.load(std::memory_order_relaxed) != 0;
}

int stop_signal() {
  return requested_signal.load();
}

namespace {
std::string name_of(int signal) {
  return std::string("SIG") + sigabbrev_np(signal);
}
}  // namespace

Stopped::Stopped(int by_signal)
    : std::runtime_error("stopped by signal " + name_of(by_signal) +
                         "; the same command continues"),
      signal(by_signal) {}

std::string Stopped::signal_name() const {
  return name_of(signal);
}

void stop_if_requested() {
  if (stop_requested()) throw Stopped(stop_signal());
}

}  // namespace mora::solver
