// Catch2 main, in its own file so it compiles once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
