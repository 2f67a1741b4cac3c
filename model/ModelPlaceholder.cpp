// Removed once model/ has its first real source.
namespace md { int modelPlaceholder() { return 0; } }
