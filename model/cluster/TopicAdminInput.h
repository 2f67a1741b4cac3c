#pragma once

// Checks of what a user types into the topic administration dialogs, done
// before anything is sent to Kafka so mistakes are named where they are.

#include <QMap>
#include <QString>
#include <QStringList>

namespace md {

// Kafka's rules (org.apache.kafka.common.internals.Topic.validate): not empty,
// not "." or "..", at most 249 characters, only ASCII letters, digits, '.',
// '_' and '-'. Returns an empty string when `name` is legal, else the reason.
QString topicNameProblem(const QString &name);

// True when the name has '.' or '_': Kafka's metric names treat them alike, so
// "a.b" and "a_b" collide (a warning, not an error).
bool topicNameHasMetricCollisionRisk(const QString &name);

struct ParsedConfigs {
    QMap<QString, QString> configs;
    QStringList problems; // "line 2: ..." — empty when everything parsed
};

// Parses "key=value" rows (one per line; blank lines and lines starting with
// '#' skipped; the value may contain '='; spaces around key and value trimmed).
// A missing '=', an empty or malformed key, or a key given twice is a problem naming its line.
ParsedConfigs parseConfigLines(const QString &text);

} // namespace md
