// The translation unit that builds a precompiled header (tests/CMakeLists.txt).
