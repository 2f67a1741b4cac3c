// The registries of a job's clusters compared (engine/schema/RegistryCompare.h) and
// what `mirrordesk check` prints of it, against the real brokers and the real
// registries (Apicurio) of the shared harness. One real registry serves both
// sides where they should agree (same ids, so nothing differs; a renamed
// target topic's subject is really missing); the harness's second real
// registry, which numbers its schemas on its own, is a target where the
// source's ids are another schema or absent (see RegistryPair.h for how the
// test makes them so); a closed port is one that is down. The same checks the
// copy dialog makes run here too. No fake HTTP registry: a real one produces
// every case here.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryPair.h"
#include "RegistryTestEnv.h"
#include "check_support.h"
#include "engine/admin/AdminService.h"
#include "engine/schema/RegistryCompare.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QProcess>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

// <orders>-value's two versions. The doc makes each run's text new to a
// registry that outlives one run (it would answer a known text's old id).
QByteArray orderV1(const QString &run)
{
    return QStringLiteral(R"({"type":"record","name":"Order","doc":"%1","fields":[{"name":"id","type":"long"}]})")
        .arg(run)
        .toUtf8();
}
QByteArray orderV2(const QString &run)
{
    return QStringLiteral(R"({"type":"record","name":"Order","doc":"%1","fields":[{"name":"id","type":"long"},)"
                          R"({"name":"n","type":"string","default":""}]})")
        .arg(run)
        .toUtf8();
}

QString lineWith(const QString &text, const QString &needle)
{
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.contains(needle))
            return line;
    return {};
}

} // namespace

class TestRegistryCompareReal final : public QObject, private CheckFixture {
    Q_OBJECT

    QString m_url;
    QString m_second;
    int m_v1 = 0; // ids of <orders>-value's versions on the real registry
    int m_v2 = 0;
    // The subject that has m_v1 on the second registry, as another schema.
    QString m_otherSubject;

    SchemaRegistryConfig real() const { return SchemaRegistryConfig{.url = m_url}; }

    QString profile(const QString &name, const QString &naming, const QString &sourceRegistry,
                    const QString &targetRegistry)
    {
        auto registry = [](const QString &url) {
            return url.isEmpty() ? QString() : QStringLiteral(R"(, "schemaRegistry": {"url": "%1"})").arg(url);
        };
        return writeProfile(name, QStringLiteral(R"({"mirrordesk": 1, "name": "registry compare",
            "source": {"alias": "eu", "bootstrap": "%1"%2},
            "target": {"alias": "dr", "bootstrap": "%3"%4},
            "topics": {"include": ["%5\\.orders"]},
            "naming": %6, "start": "earliest", "createTopics": true})")
                                      .arg(sourceBootstrap(), registry(sourceRegistry), targetBootstrap(),
                                           registry(targetRegistry), m_base, naming)
                                      .toUtf8());
    }

    SchemaRegistryConfig second() const { return SchemaRegistryConfig{.url = m_second}; }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        MD_REQUIRE_SECOND_REGISTRY();
        m_url = registryUrl();
        m_second = secondRegistryUrl();
        createTopics();
        SchemaRegistryClient client(real());
        SchemaRegistryClient other(second());
        RegistryError error;
        const QString subject = m_orders + QStringLiteral("-value");
        // The second registry has <orders>-value too (so ids, not the subject, differ) ...
        QVERIFY2(other.registerSchema(subject, QStringLiteral("AVRO"),
                                      QStringLiteral(R"({"type":"enum","name":"E%1","symbols":["A"]})")
                                          .arg(QString(m_orders)
                                                   .replace(QLatin1Char('-'), QLatin1Char('_'))
                                                   .replace(QLatin1Char('.'), QLatin1Char('_')))
                                          .toUtf8(),
                                      {}, &error),
                 qPrintable(error.message));
        // ... then, the counters level, <orders>-value's v1 on the source and
        // another subject's schema on the second get the same id; v2 on the
        // source only has an id the second registry lacks.
        QString why;
        QVERIFY2(alignSchemaIds(client, other, &why), qPrintable(why));
        const std::optional<int> v1 =
            client.registerSchema(subject, QStringLiteral("AVRO"), orderV1(m_orders), {}, &error);
        QVERIFY2(v1, qPrintable(error.message));
        m_otherSubject = QStringLiteral("other-") + m_orders + QStringLiteral("-value");
        // A text new to the registry (else it answers the id it gave it before).
        const std::optional<int> o = other.registerSchema(
            m_otherSubject, QStringLiteral("AVRO"),
            QStringLiteral(R"({"type":"string","doc":"not an order: %1"})").arg(m_orders).toUtf8(), {}, &error);
        QVERIFY2(o, qPrintable(error.message));
        QCOMPARE(*o, *v1);
        const std::optional<int> v2 =
            client.registerSchema(subject, QStringLiteral("AVRO"), orderV2(m_orders), {}, &error);
        QVERIFY2(v2, qPrintable(error.message));
        QVERIFY(*v1 != *v2);
        m_v1 = *v1;
        m_v2 = *v2;
    }

    void sameRegistryAgrees()
    {
        const RegistryComparison c =
            readRegistryComparison(real(), real(), {{m_orders, m_orders}, {m_payments, m_payments}});
        QCOMPARE(c.state, RegistryComparison::State::Compared);
        QVERIFY2(c.findings.isEmpty(), qPrintable(c.lines().join(QLatin1Char('\n'))));
        QCOMPARE(c.subjects, 1); // <payments> has no subject: nothing to compare
        QCOMPARE(c.ids, 2);
    }

    void renamedTargetTopicLacksItsSubject()
    {
        const QString target = QStringLiteral("eu.") + m_orders;
        const RegistryComparison c = readRegistryComparison(real(), real(), {{m_orders, target}});
        QCOMPARE(c.findings.size(), 1);
        QCOMPARE(c.findings.first().kind, SchemaFinding::Kind::SubjectMissing);
        QCOMPARE(c.findings.first().targetSubject, target + QStringLiteral("-value"));
    }

    void otherTargetRegistryIsReported()
    {
        const RegistryComparison c = readRegistryComparison(real(), second(), {{m_orders, m_orders}});
        QCOMPARE(c.state, RegistryComparison::State::Compared);
        QCOMPARE(c.findings.size(), 2);
        QCOMPARE(c.findings.at(0).kind, SchemaFinding::Kind::IdDiffers);
        QCOMPARE(c.findings.at(0).schemaId, m_v1);
        QVERIFY2(c.findings.at(0).text.endsWith(QStringLiteral("which on the target registry is %1 version 1 "
                                                               "(a different AVRO schema)")
                                                    .arg(m_otherSubject)),
                 qPrintable(c.findings.at(0).text));
        QCOMPARE(c.findings.at(1).kind, SchemaFinding::Kind::IdAbsent);
        QCOMPARE(c.findings.at(1).schemaId, m_v2);
        QCOMPARE(c.findings.at(1).version, 2);
    }

    void downRegistryIsANoteNamingIt()
    {
        const SchemaRegistryConfig down{
            .url = QStringLiteral("http://user:pw@127.0.0.1:%1/apis/ccompat/v7").arg(closedPort())};
        const RegistryComparison c = readRegistryComparison(real(), down, {{m_orders, m_orders}}, 3000);
        QCOMPARE(c.state, RegistryComparison::State::NotRead);
        QCOMPARE(c.notes.size(), 1);
        QVERIFY2(c.notes.first().startsWith(QStringLiteral("target registry http://127.0.0.1:")),
                 qPrintable(c.notes.first()));
        QVERIFY(!c.notes.first().contains(QStringLiteral("pw")));
    }

    void checkPrintsSchemasAsWarnings()
    {
        // Same registry both sides, prefix naming: eu.<orders>-value is missing; the exit code stays 0.
        const QString prefixed =
            profile(QStringLiteral("prefixed.mirrorjob"), QStringLiteral(R"({"policy": "prefix"})"), m_url, m_url);
        Run r = runCheck(prefixed);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("schemas (TopicNameStrategy subjects of the mirrored topics):\n")),
                 qPrintable(r.out));
        const QString missing = lineWith(r.out, QStringLiteral("missing on the target registry"));
        QCOMPARE(missing, QStringLiteral("  warning: %1-value: missing on the target registry (as eu.%1-value, the "
                                         "subject of target topic eu.%1) (2 versions on the source)")
                              .arg(m_orders));
        QVERIFY2(
            r.out.contains(QStringLiteral("  schemas: 1 subject, 2 ids compared: 1 subject missing on the target\n")),
            qPrintable(r.out));

        // Identity naming: nothing to warn about.
        const QString identity =
            profile(QStringLiteral("identity.mirrorjob"), QStringLiteral(R"({"policy": "identity"})"), m_url, m_url);
        r = runCheck(identity);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("  schemas: 1 subject, 2 ids compared: the target registry has every one\n")),
            qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("warning: ") + m_orders));

        // Only the source has a registry: said once.
        r = runCheck(
            profile(QStringLiteral("onesided.mirrorjob"), QStringLiteral(R"({"policy": "identity"})"), m_url, {}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out.count(QStringLiteral("only the source cluster has a schema registry")), 1);
    }

    void checkNamesTheSchemaIdsTheTargetMeansOtherwise()
    {
        const Run r = runCheck(
            profile(QStringLiteral("second.mirrorjob"), QStringLiteral(R"({"policy": "identity"})"), m_url, m_second));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(lineWith(r.out, QStringLiteral("schema id %1,").arg(m_v1)),
                 QStringLiteral("  warning: %1-value version 1: records copied byte for byte will point at schema id "
                                "%2, which on the target registry is %3 version 1 (a different AVRO schema)")
                     .arg(m_orders)
                     .arg(m_v1)
                     .arg(m_otherSubject));
        QCOMPARE(lineWith(r.out, QStringLiteral("schema id %1,").arg(m_v2)),
                 QStringLiteral("  warning: %1-value version 2 (latest): records copied byte for byte will point at "
                                "schema id %2, which on the target registry is absent")
                     .arg(m_orders)
                     .arg(m_v2));
    }

    void checkWithADownRegistryStillChecks()
    {
        const Run r = runCheck(profile(QStringLiteral("down.mirrorjob"), QStringLiteral(R"({"policy": "identity"})"),
                                       m_url, QStringLiteral("http://127.0.0.1:%1").arg(closedPort())));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QString line = lineWith(r.out, QStringLiteral("target registry http://127.0.0.1:"));
        QVERIFY2(line.startsWith(QStringLiteral("  warning: target registry http://127.0.0.1:")), qPrintable(r.out));
        QVERIFY2(line.contains(QStringLiteral("not compared: ")), qPrintable(line));
        QVERIFY2(r.out.contains(QStringLiteral("\ncheck: 1 topics to mirror")), qPrintable(r.out));
    }

    void copyCheckAgainstTwoRealRegistries()
    {
        KafkaMessage m;
        QByteArray v(5, '\0');
        for (int i = 0; i < 4; ++i)
            v[4 - i] = char((m_v2 >> (8 * i)) & 0xff);
        m.value = v + QByteArray("\x02\x00", 2);
        const QList<int> ids = wireSchemaIds({m});
        QCOMPARE(ids, QList<int>{m_v2});
        // The same registry on both sides: nothing to warn about.
        CopySchemaCheck c = checkCopySchemaIds(ids, real(), real());
        QVERIFY2(!c.warn() && c.notes.isEmpty(), qPrintable(c.text()));
        // A target registry without it: the id is named.
        c = checkCopySchemaIds(ids, real(), second());
        QVERIFY(c.warn());
        QCOMPARE(c.problems.size(), 1);
        QVERIFY2(c.problems.first().startsWith(QStringLiteral("schema id %1: ").arg(m_v2)), qPrintable(c.text()));
        QVERIFY2(c.problems.first().endsWith(QStringLiteral(" is absent")), qPrintable(c.text()));
    }
};

QTEST_GUILESS_MAIN(TestRegistryCompareReal)
#include "tst_registrycompare.moc"
