#pragma once

#include <QList>

class QFormLayout;

namespace md {

// Gives every label of `forms` the width of the widest, so that a form nested
// in another (a titled section such as the schema registry's) keeps the same
// field column as the form around it.
void alignFormLabels(const QList<QFormLayout *> &forms);

} // namespace md
