// Removed once ui/ has its first real source.
namespace md { int uiPlaceholder() { return 0; } }
