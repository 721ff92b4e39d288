// Catch2's main, in a file of its own so it compiles once for the three test binaries.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
