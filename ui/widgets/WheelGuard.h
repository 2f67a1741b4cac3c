#pragma once

class QWidget;

namespace md {

// In a scrolling form a wheel turned over a combo box or a spin box must scroll
// the form, not change the value the pointer happens to pass: for every such
// child of `form` the wheel only acts once the field has focus (a click or Tab),
// and otherwise goes to the form. Children added later are not covered.
void guardWheel(QWidget *form);

} // namespace md
