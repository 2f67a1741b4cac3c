#pragma once

// MirrorMaker 2 interop: reading an mm2.properties (dedicated mode) into job
// profiles, and writing a profile back out as mm2.properties or as a
// MirrorSourceConnector configuration for a Kafka Connect cluster.
// QtCore only; nothing here talks to a cluster.

#include "model/profile/JobProfile.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// One logical entry of a Java properties file (java.util.Properties.load
// rules: '#'/'!' comments, '='/':'/whitespace separators, backslash line
// continuations, \t \n \r \f \uXXXX escapes, any other "\x" is "x").
struct JavaProperty {
    QString key;
    QString value;
    int line = 0; // 1-based line where the entry starts
};

struct JavaPropertiesError {
    int line = 0;
    QString message;
};

// Parses the whole text; an entry with a malformed \u escape is reported in
// *errors and skipped (Java refuses the whole file; we go on to list more).
// Input is read as UTF-8 when valid, else as ISO 8859-1 (what Java reads).
QList<JavaProperty> parseJavaProperties(const QByteArray &data, QList<JavaPropertiesError> *errors = nullptr);

// A key or value written the way Properties.load reads it back: separators,
// leading spaces, '#'/'!' and backslashes escaped; characters past ASCII as \uXXXX.
QString escapeJavaPropertyKey(const QString &key);
QString escapeJavaPropertyValue(const QString &value);

// A line of the input that did not become part of any profile. `key` is the
// property name; the value is never repeated (it may be a secret).
struct Mm2Unmapped {
    int line = 0;
    QString key;
    QString reason;

    QString toString() const; // "line 12: us.ssl.keystore.location: reason"
};

// An environment variable the user has to set before running an imported
// profile, because the password it stood for is never written to a file.
struct Mm2SecretVariable {
    QString name;        // MIRRORDESK_EU_PASSWORD
    QString description; // "password of SASL user mirror on cluster eu (line 7)"
};

struct Mm2Flow {
    QString sourceAlias;
    QString targetAlias;
    JobProfile profile;
    QString fileName() const; // "<source>-to-<target>.mirrorjob"
};

struct Mm2ImportResult {
    QList<Mm2Flow> flows;               // one per enabled A->B flow, in the file's cluster order
    QList<Mm2Unmapped> unmapped;        // sorted by line
    QList<Mm2SecretVariable> variables; // to set before running
    QStringList notes;                  // approximations worth knowing (not errors)
    QString error;                      // set when nothing can be imported
};

// Turns an mm2.properties into one profile per enabled flow (`A->B.enabled = true`).
// `fileName` only names the file in messages.
Mm2ImportResult importMm2Properties(const QByteArray &data, const QString &fileName = {});

struct Mm2ExportOptions {
    // Replication factor of the topics MM2 creates (mirrored topics and its
    // internal ones: heartbeats, checkpoints, offset-syncs, and the Connect
    // offset/status/config topics in dedicated mode). 0 leaves MM2's defaults,
    // which need at least 3 brokers for the Connect topics; 1 for single-broker clusters.
    int replicationFactor = 0;
};

struct Mm2ExportResult {
    QByteArray data;   // the file to write; empty when error is set
    QStringList notes; // what the user has to know or do (variables to set, approximations)
    QString error;     // the profile cannot be expressed for MM2
};

// mm2.properties for `connect-mirror-maker.sh` (dedicated mode): one A->B flow,
// the reverse flow and its heartbeats off. Passwords are written as ${env:NAME}
// references resolved by Kafka's EnvVarConfigProvider, never in clear.
Mm2ExportResult exportMm2Properties(const JobProfile &profile, const Mm2ExportOptions &options = {});

// {"name": ..., "config": {...}} for POST /connectors on a Kafka Connect
// cluster: a MirrorSourceConnector with byte-array converters.
Mm2ExportResult exportMm2Connector(const JobProfile &profile, const Mm2ExportOptions &options = {});

// MM2's class names, for tests and messages.
inline constexpr char kMm2DefaultPolicy[] = "org.apache.kafka.connect.mirror.DefaultReplicationPolicy";
inline constexpr char kMm2IdentityPolicy[] = "org.apache.kafka.connect.mirror.IdentityReplicationPolicy";
inline constexpr char kKafkaEnvProvider[] = "org.apache.kafka.common.config.provider.EnvVarConfigProvider";

} // namespace md
