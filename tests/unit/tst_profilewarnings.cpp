// Job profiles that load with warnings: unknown keys (with "did you mean"),
// engine-owned properties, and clear passwords (never showing the password).

#include "JobProfileTestUtil.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace md;
using namespace md::test;

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstProfileWarnings final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unknownKeysWarn_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");
        QTest::newRow("top level") << profileWith(QStringLiteral("colour"), QStringLiteral("blue")) << "colour"
                                   << "unknown key, ignored";
        QTest::newRow("typo in side") << profileWith(QStringLiteral("source.bootstrapServers"), QStringLiteral("x"))
                                      << "source.bootstrapServers"
                                      << "unknown key";
        QTest::newRow("did you mean") << profileWith(QStringLiteral("target.secuirty"), QStringLiteral("ssl"))
                                      << "target.secuirty"
                                      << "did you mean \"security\"?";
        QTest::newRow("in naming") << profileWith(QStringLiteral("naming.prefix"), QStringLiteral("x"))
                                   << "naming.prefix"
                                   << "unknown key";
        QTest::newRow("in topics") << profileWith(QStringLiteral("topics.includes"), QJsonArray()) << "topics.includes"
                                   << "did you mean \"include\"?";
        QTest::newRow("in acls") << profileWith(QStringLiteral("acls"), parse("{\"sync\": true, \"interval\": 5000}"))
                                 << "acls.interval"
                                 << "unknown key, ignored (did you mean \"intervalMs\"?)";
        QTest::newRow("in sasl") << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_plaintext")},
                                                 {QStringLiteral("source.sasl"),
                                                  parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", "
                                                        "\"password\": \"${env:X}\", \"user\": \"u\"}")}})
                                 << "source.sasl.user"
                                 << "unknown key";
        QTest::newRow("sasl with plaintext")
            << profileWith(QStringLiteral("source.sasl"), parse("{\"mechanism\": \"PLAIN\"}")) << "source.sasl"
            << "ignored with security plaintext";
        QTest::newRow("engine-owned property")
            << profileWith(QStringLiteral("source.consumerProperties"), parse("{\"enable.auto.commit\": true}"))
            << "source.consumerProperties[\"enable.auto.commit\"]"
            << "sets this property itself";
        // A map another job could copy: only "*.offset-map" is never mirrored.
        QTest::newRow("offset map without its suffix")
            << profileWith(QStringLiteral("offsetMapTopic"), QStringLiteral("pay-eos.map")) << "offsetMapTopic"
            << "does not end with \".offset-map\"";
    }

    void anOffsetMapNamedAsSuchDoesNotWarn()
    {
        QList<ProfileIssue> issues;
        JobProfile::fromJson(profileWith(QStringLiteral("offsetMapTopic"), QStringLiteral("pay-eos.offset-map")),
                             QStringLiteral("w.mirrorjob"), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
    }

    void unknownKeysWarn()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QFETCH(QString, message);
        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("w.mirrorjob"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        const QList<ProfileIssue> warnings = warningsOf(issues);
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.first().keyPath, keyPath);
        QVERIFY2(warnings.first().message.contains(message), qPrintable(warnings.first().toString()));
        QVERIFY2(warnings.first().toString().contains(QStringLiteral(": warning: ") + keyPath + QStringLiteral(": ")),
                 qPrintable(warnings.first().toString()));
        QVERIFY(warnings.first().line > 0);
    }

    void clearPasswordWarnsWithoutShowingIt_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        const QString secret = QStringLiteral("hunter2-Sup3rS3cret");
        QTest::newRow("sasl.password")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_plaintext")},
                            {QStringLiteral("source.sasl"),
                             QJsonObject{{QStringLiteral("mechanism"), QStringLiteral("SCRAM-SHA-256")},
                                         {QStringLiteral("username"), QStringLiteral("u")},
                                         {QStringLiteral("password"), secret}}}})
            << "source.sasl.password";
        QTest::newRow("ssl.keyPassword") << profileWith({{QStringLiteral("target.security"), QStringLiteral("ssl")},
                                                         {QStringLiteral("target.ssl"),
                                                          QJsonObject{{QStringLiteral("cert"), QStringLiteral("c.pem")},
                                                                      {QStringLiteral("key"), QStringLiteral("k.pem")},
                                                                      {QStringLiteral("keyPassword"), secret}}}})
                                         << "target.ssl.keyPassword";
        QTest::newRow("password property")
            << profileWith(QStringLiteral("target.properties"),
                           QJsonObject{{QStringLiteral("ssl.keystore.password"), secret}})
            << "target.properties[\"ssl.keystore.password\"]";
    }

    void clearPasswordWarnsWithoutShowingIt()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(data, QStringLiteral("c.mirrorjob"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        const QList<ProfileIssue> warnings = warningsOf(issues);
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.first().keyPath, keyPath);
        QVERIFY(warnings.first().message.contains(QLatin1String("clear text")));
        QVERIFY(p.hasClearSecret());
        QVERIFY(!describe(issues).contains(QLatin1String("hunter2")));
        QVERIFY(!describe(p.validate()).contains(QLatin1String("hunter2")));
    }

    void referencedPasswordDoesNotWarn()
    {
        QList<ProfileIssue> issues;
        const JobProfile p =
            JobProfile::fromJson(profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_ssl")},
                                              {QStringLiteral("source.sasl"),
                                               parse("{\"mechanism\": \"scram-sha-512\", \"username\": \"u\",\n"
                                                     "                                                                 "
                                                     "  \"password\": \"${env:EU_PASSWORD}\"}")}}),
                                 QStringLiteral("r"), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(!p.hasClearSecret());
    }
};

QTEST_GUILESS_MAIN(TstProfileWarnings)
#include "tst_profilewarnings.moc"
