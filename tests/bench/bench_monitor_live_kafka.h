// bench_monitor_live's brokers: the harness's addresses, and the jobs' target topics made
// before a phase starts (--create-targets).
#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QList>
#include <QString>
#include <QStringList>

// The bootstrap address of the harness broker `name` (source, target) under
// $MIRRORDESK_KAFKA_STATE, or empty.
QString harnessBootstrap(const QString &name);

// Creates the target topic of each job (specs[i] copies sourceTopics[i]) the way the engine
// does (syncTargetTopic: its partition count, replication and configs) and waits until the
// target's metadata lists each one, so the jobs find them there. Returns an error, or empty.
QString createTargetTopics(const QList<md::MirrorJobSpec> &specs, const QStringList &sourceTopics, int timeoutMs);
