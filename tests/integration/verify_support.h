#pragma once

// Shared by the `mirrordesk verify` tests (tst_verify, tst_verifydelivery,
// tst_verifytrim): records that exercise every field, a source topic and its
// copy produced with the independent test producer, the job spec that pairs
// them, and the verdict of one partition.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/verify/Verifier.h"

#include <QRegularExpression>
#include <QTcpServer>
#include <QtTest/QtTest>

namespace md::test {

inline QByteArray bytes(const char *s)
{
    return QByteArray(s);
}

// Records exercising every field: null and empty keys and values, binary
// bytes, duplicate and null-valued headers, old explicit timestamps.
inline QList<TestRecord> sampleRecords(int partition, int count)
{
    QList<TestRecord> out;
    for (int i = 0; i < count; ++i) {
        TestRecord r;
        r.partition = partition;
        r.timestamp = 1500000000000LL + partition * 100000 + i; // 2017: far from "now"
        switch (i % 5) {
        case 0:
            r.key = std::nullopt;
            r.value = bytes("plain") + QByteArray::number(i);
            break;
        case 1:
            r.key = QByteArray();
            r.value = std::nullopt;
            break;
        case 2:
            r.key = bytes("k") + QByteArray::number(i);
            r.value = QByteArray();
            break;
        case 3:
            r.key = QByteArray("\x00\xff\x01", 3);
            r.value = QByteArray(1000, char(i));
            break;
        default:
            r.key = bytes("h") + QByteArray::number(i);
            r.value = bytes("with headers");
            r.headers = {{QStringLiteral("dup"), bytes("1")},
                         {QStringLiteral("dup"), bytes("2")},
                         {QStringLiteral("null"), std::nullopt},
                         {QStringLiteral("empty"), QByteArray()}};
            break;
        }
        out.append(r);
    }
    return out;
}

inline MirrorJobSpec makeSpec(const QString &topic)
{
    MirrorJobSpec spec;
    spec.name = QStringLiteral("verify test");
    spec.source = test::clusterConfig(QStringLiteral("source"));
    spec.source.alias = QStringLiteral("src");
    spec.target = test::clusterConfig(QStringLiteral("target"));
    spec.target.alias = QStringLiteral("dst");
    spec.include = {QRegularExpression::escape(topic)};
    spec.naming = NamingPolicy::Prefix;
    spec.start = StartPosition::Earliest;
    return spec;
}

inline QString targetName(const QString &topic)
{
    return QStringLiteral("src.") + topic;
}

inline int closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort(); // closed again when `server` goes
}

inline VerifyOptions quickOptions()
{
    VerifyOptions o;
    o.connectTimeoutMs = 10000;
    o.idleTimeoutMs = 20000;
    return o;
}

// Source topic with `partitions` partitions, target copy under the prefix name;
// `source` and `target` are produced as given (per partition, in order).
inline void makePair(const QString &topic, int partitions, const QList<TestRecord> &source,
                     const QList<TestRecord> &target, bool createTarget = true)
{
    QString error;
    QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, partitions, {}, &error), qPrintable(error));
    if (createTarget)
        QVERIFY2(test::createTopic(test::targetBootstrap(), targetName(topic), partitions, {}, &error),
                 qPrintable(error));
    if (!source.isEmpty())
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, source, &error), qPrintable(error));
    if (!target.isEmpty())
        QVERIFY2(test::produce(test::targetBootstrap(), targetName(topic), target, &error), qPrintable(error));
}

inline const PartitionVerdict *verdictFor(const VerifyReport &report, int partition)
{
    for (const PartitionVerdict &v : report.partitions) {
        if (v.partition == partition)
            return &v;
    }
    return nullptr;
}

} // namespace md::test
