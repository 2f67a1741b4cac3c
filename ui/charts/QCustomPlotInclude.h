#pragma once

// qcustomplot.h uses Qt's lowercase keywords (signals, emit, foreach), which the project's
// QT_NO_KEYWORDS removes: map them for this one header only.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
