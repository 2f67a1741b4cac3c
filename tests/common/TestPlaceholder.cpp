namespace md { int testPlaceholder() { return 0; } }
