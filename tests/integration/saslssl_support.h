#pragma once

// Shared by tst_sasl_ssl and tst_secret_leak: profiles whose sides talk
// SASL_SSL + SCRAM-SHA-512 to the sasl broker's SASL_SSL listeners, with the
// password read from the environment the way the README shows.

#include "headless_support.h"

namespace md::test {

struct SaslSslSide {
    QString listener = QStringLiteral("sasl-ssl"); // or "sasl-ssl-wrong-host", "sasl-ssl-expired"
    QString passwordEnv;                           // the ${env:NAME} of sasl.password
    QString caFile;                                // empty: the harness CA (tlsFile("ca.pem"))
};

// The "source"/"target" JSON object of one SASL_SSL side.
inline QString saslSslSideJson(const QString &alias, const SaslSslSide &side)
{
    return QStringLiteral("{\"alias\": \"%1\", \"bootstrap\": \"%2\", \"security\": \"sasl_ssl\",\n"
                          "   \"sasl\": {\"mechanism\": \"SCRAM-SHA-512\", \"username\": \"%3\",\n"
                          "            \"password\": \"${env:%4}\"},\n"
                          "   \"ssl\": {\"ca\": \"%5\"}}")
        .arg(alias, bootstrap(side.listener), jsonEscaped(saslUser()), side.passwordEnv,
             jsonEscaped(side.caFile.isEmpty() ? tlsFile(QStringLiteral("ca.pem")) : side.caFile));
}

// A job mirroring `topic` from `source` to `target` (both on the sasl broker;
// the target topic is "src.<topic>"), written as dir/fileName; returns the path.
inline QString writeSaslSslProfile(const QString &dir, const QString &fileName, const QString &jobName,
                                   const QString &topic, const SaslSslSide &source, const SaslSslSide &target)
{
    const QString json =
        QStringLiteral("{\n \"mirrordesk\": 1,\n \"name\": \"%1\",\n"
                       " \"source\": %2,\n \"target\": %3,\n"
                       " \"topics\": {\"include\": [\"%4\"]},\n"
                       " \"naming\": {\"policy\": \"prefix\", \"separator\": \".\"},\n"
                       " \"start\": \"earliest\"\n}\n")
            .arg(jsonEscaped(jobName), saslSslSideJson(QStringLiteral("src"), source),
                 saslSslSideJson(QStringLiteral("dst"), target), jsonEscaped(QRegularExpression::escape(topic)));
    const QString path = QDir(dir).filePath(fileName);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(json.toUtf8());
    return path;
}

// Records with nulls, empties, binary bytes, headers and old timestamps over
// `partitions` partitions: what a mirror must copy exactly.
inline QList<TestRecord> saslSslRecords(int count, int partitions)
{
    QList<TestRecord> records;
    for (int i = 0; i < count; ++i) {
        TestRecord r;
        r.partition = i % partitions;
        r.key = i % 7 == 0 ? std::nullopt : std::optional<QByteArray>(QByteArray::number(i));
        r.value =
            i % 11 == 0 ? std::nullopt : std::optional<QByteArray>(QByteArray("v\x00", 2) + QByteArray::number(i * i));
        if (i % 3 == 0)
            r.headers = {{QStringLiteral("h"), QByteArray::number(i)}, {QStringLiteral("null"), std::nullopt}};
        r.timestamp = 1'600'000'000'000 + i;
        records << r;
    }
    return records;
}

// Records in the order consumeAll returns them: by partition, then as written.
inline QList<TestRecord> sortedByPartition(const QList<TestRecord> &records)
{
    QList<TestRecord> sorted = records;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const TestRecord &a, const TestRecord &b) { return a.partition < b.partition; });
    return sorted;
}

} // namespace md::test
