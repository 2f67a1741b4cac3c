// Precompiled for every unit and integration test (tests/CMakeLists.txt): the
// Qt and standard headers they share are about two thirds of a test's compile
// time. Only headers outside the project, so a change of ours rebuilds no PCH;
// the headers most tests include, not whole modules (a big PCH is slow to load).
#pragma once

#include <QtTest/QtTest>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <librdkafka/rdkafka.h>
