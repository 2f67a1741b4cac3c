// The exported mm2.properties runs in the real MirrorMaker 2 (Apache Kafka's
// connect-mirror, from the jars the broker harness fetched) between the test
// brokers, and the records arrive on the target: proof that the export is a
// working MM2 configuration, not only a plausible-looking file. The source is
// the SASL/SCRAM broker, so the ${env:NAME} password reference and the
// EnvVarConfigProvider the export declares are exercised too.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "headless_support.h"
#include "model/mm2/Mm2Properties.h"
#include "model/profile/JobProfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace md;
using namespace md::test;

namespace {

// Where tests/kafka/harness.sh keeps the Kafka jars (headless_support.h).
QString kafkaLibsDir(QString *error)
{
    const KafkaTools tools = kafkaTools(QStringLiteral("connect-mirror"));
    *error = tools.error;
    return tools.ok() ? tools.libs : QString();
}

QString tail(const QString &path, int lines = 60)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("(no log at %1)").arg(path);
    const QStringList all = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    return all.mid(qMax(0, int(all.size()) - lines)).join(QLatin1Char('\n'));
}

} // namespace

class TestMm2Run final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exportedPropertiesRunInMirrorMaker2()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"), QStringLiteral("target"));
        QString error;
        const QString libs = kafkaLibsDir(&error);
        const QString java = QStandardPaths::findExecutable(QStringLiteral("java"));
        if (libs.isEmpty() || java.isEmpty()) {
            const QString why = libs.isEmpty() ? error : QStringLiteral("java not found");
            if (isCi())
                QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }

        // Records on the SASL source, with keys, null values and headers.
        const QString topic = uniqueName(QStringLiteral("mm2run"));
        const ClientProperties sasl = clientProperties(QStringLiteral("sasl"));
        QVERIFY2(createTopic(saslBootstrap(), topic, 2, {}, &error, sasl), qPrintable(error));
        QList<TestRecord> records;
        for (int i = 0; i < 20; ++i) {
            TestRecord r;
            r.key = QByteArray("key-") + QByteArray::number(i);
            if (i % 7 != 3)
                r.value = QByteArray("value-") + QByteArray::number(i);
            r.headers.append({QStringLiteral("h"), QByteArray::number(i)});
            r.partition = i % 2;
            records << r;
        }
        ProduceOptions po;
        po.client = sasl;
        QVERIFY2(produce(saslBootstrap(), topic, records, &error, po), qPrintable(error));

        // The job, as a MirrorDesk user would write it, exported for MM2.
        const QString variable = QStringLiteral("MIRRORDESK_TEST_MM2_SASL_PASSWORD");
        JobProfile p;
        p.name = QStringLiteral("mm2 run test");
        p.source.alias = QStringLiteral("mdsrc");
        p.source.bootstrap = saslBootstrap();
        p.source.security = SecurityProtocol::SaslPlaintext;
        p.source.hasSasl = true;
        p.source.saslMechanism = QString::fromLatin1(kSaslMechanism);
        p.source.saslUsername = saslUser();
        p.source.saslPassword = QStringLiteral("${env:%1}").arg(variable);
        p.target.alias = QStringLiteral("mdtgt");
        p.target.bootstrap = targetBootstrap();
        p.include = {QRegularExpression::escape(topic)};
        p.naming = NamingPolicy::Prefix;
        p.separator = QStringLiteral(".");
        QVERIFY(p.validate().isEmpty());
        Mm2ExportOptions options;
        options.replicationFactor = 1; // single-broker clusters
        const Mm2ExportResult exported = exportMm2Properties(p, options);
        QVERIFY2(exported.error.isEmpty(), qPrintable(exported.error));
        QVERIFY(!exported.data.contains(saslPassword().toUtf8()));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString props = dir.filePath(QStringLiteral("mm2.properties"));
        {
            QFile f(props);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(exported.data);
        }
        const QString log = dir.filePath(QStringLiteral("mm2.log"));

        QProcess mm2;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(variable, saslPassword());
        mm2.setProcessEnvironment(env);
        mm2.setProcessChannelMode(QProcess::MergedChannels);
        mm2.setStandardOutputFile(log);
        // Small heap and C1 only, like the harness: the machine is shared.
        mm2.start(java, {QStringLiteral("-Xms64m"), QStringLiteral("-Xmx384m"), QStringLiteral("-XX:+UseSerialGC"),
                         QStringLiteral("-XX:TieredStopAtLevel=1"), QStringLiteral("-Djava.awt.headless=true"),
                         QStringLiteral("-cp"), libs + QStringLiteral("/*"),
                         QStringLiteral("org.apache.kafka.connect.mirror.MirrorMaker"), props});
        QVERIFY2(mm2.waitForStarted(20000), qPrintable(mm2.errorString()));
        const auto stopMm2 = qScopeGuard([&mm2] {
            if (mm2.state() == QProcess::NotRunning)
                return;
            mm2.terminate();
            if (!mm2.waitForFinished(20000)) {
                mm2.kill();
                mm2.waitForFinished(5000);
            }
        });

        // MM2 replicates once its worker leads and the connectors are
        // configured: tens of seconds on a loaded machine.
        const QString mirrored = p.source.alias + QLatin1Char('.') + topic;
        QElapsedTimer clock;
        clock.start();
        qint64 copied = 0;
        while (clock.elapsed() < 150000) {
            if (mm2.state() == QProcess::NotRunning)
                QFAIL(
                    qPrintable(QStringLiteral("MirrorMaker 2 exited with %1:\n%2").arg(mm2.exitCode()).arg(tail(log))));
            QString e;
            if (const auto marks = watermarks(targetBootstrap(), mirrored, &e, {}, 5000)) {
                copied = totalMessages(*marks);
                if (copied >= records.size())
                    break;
            }
            QThread::msleep(1000);
        }
        QVERIFY2(copied >= records.size(),
                 qPrintable(QStringLiteral("%1 of %2 records reached %3 after %4 s; MM2's log:\n%5")
                                .arg(copied)
                                .arg(records.size())
                                .arg(mirrored)
                                .arg(clock.elapsed() / 1000)
                                .arg(tail(log))));
        qInfo("MM2 copied %lld records in %lld ms from its start", copied, clock.elapsed());

        const std::optional<QList<TestRecord>> got = consumeAll(targetBootstrap(), mirrored, &error);
        QVERIFY2(got, qPrintable(error));
        // Same records per partition, in order (MM2 keeps the partition).
        QString difference;
        QList<TestRecord> expected;
        for (int part : {0, 1}) {
            for (const TestRecord &r : std::as_const(records)) {
                if (r.partition == part)
                    expected << r;
            }
        }
        QVERIFY2(sameRecords(expected, *got, &difference), qPrintable(difference));

        // The password went through the environment only.
        QFile f(props);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!f.readAll().contains(saslPassword().toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestMm2Run)
#include "tst_mm2_run.moc"
