// Precompiled for the engine, model and service libraries (see CMakeLists.txt):
// the QtCore and standard headers their sources share. Only headers outside the
// project, so a change of ours rebuilds no PCH. Every file still includes what
// it uses (the fuzz build compiles many of them without a PCH).
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QLocale>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <librdkafka/rdkafka.h>
