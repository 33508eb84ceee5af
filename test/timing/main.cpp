// Timing tests elaborate SystemC models; libsystemc owns main() and calls sc_main.
// catch_discover_tests runs every TEST_CASE in its own process (SystemC elaborates once).
#include <systemc>

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }

// Sanitizer builds: LeakSanitizer's tracer crashes (signal 11) scanning SystemC's coroutine
// stacks at exit, after the tests have passed. AddressSanitizer and UBSan stay on.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
