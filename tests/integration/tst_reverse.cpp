// Failback with `mirrordesk reverse`, the real executable on real brokers;
// Kafka's VerifiableProducer writes, GetOffsetShell and ConsoleConsumer read:
//  - identity naming: after the forward job copied a topic, what applications
//    wrote on the target since goes back to the source, and nothing the
//    forward job copied comes back (the offset map's start positions: without
//    them the source would get every one of its own records again);
//  - prefix naming: the reverse job copies the target's own topic to
//    "<target alias>.<topic>" on the source and leaves the source's topic alone;
//  - refusals: the forward job still running (identity naming would loop),
//    template naming, an existing output; --dry-run writes neither the file
//    nor the reverse job's progress.
#include "headless_support.h"

#include <QTemporaryDir>

using namespace md;
using namespace md::test;

namespace {

const QString kIdentity = QStringLiteral("{\"policy\": \"identity\"}");

bool groupExists(const QString &bootstrap, const QString &group, QString *error)
{
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--list")}, &out, error))
        return true; // unknown: the caller's assertion fails with the error
    return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).contains(group);
}

} // namespace

class TestReverse final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // Runs `run FILE --until-caught-up` to its end; true when it exited 0.
    static bool runToEnd(const QString &path, const QString &label, QString *transcript)
    {
        MirrorRun run(label);
        if (!run.start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}))
            return false;
        const bool ok = run.waitForExit(180000) && run.exitCode() == 0;
        *transcript = run.transcript();
        return ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void identityFailbackCopiesOnlyWhatTheTargetWrote()
    {
        const QString topic = uniqueName(QStringLiteral("rev-id"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const int n = 900, m = 300;
        const auto copied = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
        QVERIFY2(copied, qPrintable(error));
        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.naming = kIdentity;
        const QString forward = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        QString transcript;
        QVERIFY2(runToEnd(forward, QStringLiteral("forward"), &transcript), qPrintable(transcript));

        // Applications fail over and write to the target's copy.
        const auto written = verifiableProduce(targetBootstrap(), topic, m, 2, &error);
        QVERIFY2(written, qPrintable(error));

        const QString reversePath = m_dir.filePath(topic + QStringLiteral("-reverse.mirrorjob"));
        const ExeResult dry = runMirrordesk(
            {QStringLiteral("reverse"), forward, QStringLiteral("--output"), reversePath, QStringLiteral("--dry-run")},
            120000);
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.out + dry.err));
        QVERIFY2(dry.out.contains(QStringLiteral("%1 records to copy back").arg(m)), qPrintable(dry.out));
        QVERIFY2(!QFile::exists(reversePath), "--dry-run wrote the profile");
        const QString reverseGroup = QStringLiteral("mirrordesk-") + topic + QStringLiteral(".reverse");
        QVERIFY2(!groupExists(targetBootstrap(), reverseGroup, &error) && error.isEmpty(),
                 qPrintable(QStringLiteral("--dry-run wrote progress for %1 %2").arg(reverseGroup, error)));

        const ExeResult r =
            runMirrordesk({QStringLiteral("reverse"), forward, QStringLiteral("--output"), reversePath}, 120000);
        qInfo("reverse:\n%s%s", qPrintable(r.out), qPrintable(r.err));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(QFile::exists(reversePath));
        const ExeResult again =
            runMirrordesk({QStringLiteral("reverse"), forward, QStringLiteral("--output"), reversePath}, 60000);
        QVERIFY2(again.exitCode == 2 && again.err.contains(QLatin1String("--force")),
                 qPrintable(again.out + again.err));

        QVERIFY2(runToEnd(reversePath, QStringLiteral("reverse"), &transcript), qPrintable(transcript));
        const auto source = readTopic(sourceBootstrap(), topic, *copied + *written, &error);
        QVERIFY2(source, qPrintable(error));
        qInfo("identity failback: %s", qPrintable(source->summary()));
        QVERIFY2(source->missing.isEmpty(), qPrintable(source->summary()));
        QCOMPARE(source->duplicates, 0); // the forward job's records did not come back
        QCOMPARE(source->records, qint64(n + m));
    }

    void prefixFailbackWritesUnderTheTargetAlias()
    {
        const QString topic = uniqueName(QStringLiteral("rev-px"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const auto copied = verifiableProduce(sourceBootstrap(), topic, 400, 1, &error);
        QVERIFY2(copied, qPrintable(error));
        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        const QString forward = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        QString transcript;
        QVERIFY2(runToEnd(forward, QStringLiteral("forward"), &transcript), qPrintable(transcript));

        // After the failover, applications write their own topic on the target.
        QVERIFY2(createTopic(targetBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const auto written = verifiableProduce(targetBootstrap(), topic, 250, 2, &error);
        QVERIFY2(written, qPrintable(error));

        const QString reversePath = m_dir.filePath(topic + QStringLiteral("-reverse.mirrorjob"));
        const ExeResult r =
            runMirrordesk({QStringLiteral("reverse"), forward, QStringLiteral("--output"), reversePath}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(runToEnd(reversePath, QStringLiteral("reverse"), &transcript), qPrintable(transcript));

        const auto back = readTopic(sourceBootstrap(), QStringLiteral("dst.") + topic, *written, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY2(back->missing.isEmpty() && back->unexpected.isEmpty(), qPrintable(back->summary()));
        const auto ends = endOffsets(sourceBootstrap(), topic, &error);
        QVERIFY2(ends, qPrintable(error));
        QCOMPARE(sumOf(*ends), qint64(400)); // the source's own topic untouched
    }

    void refusals()
    {
        const QString topic = uniqueName(QStringLiteral("rev-no"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, 50, 1, &error), qPrintable(error));
        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.naming = kIdentity;
        const QString forward = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        const QString reversePath = m_dir.filePath(topic + QStringLiteral("-reverse.mirrorjob"));

        // The forward job running: identity naming both ways would loop.
        MirrorRun running(QStringLiteral("forward, running"));
        QVERIFY(running.start({QStringLiteral("run"), forward}));
        QVERIFY2(MirrorRun::waitUntil([&] { return running.caughtUp() || running.finished(); }, 120000) &&
                     running.running(),
                 qPrintable(running.transcript()));
        const ExeResult busy =
            runMirrordesk({QStringLiteral("reverse"), forward, QStringLiteral("--output"), reversePath}, 120000);
        QVERIFY2(busy.exitCode == 1 && busy.err.contains(QLatin1String("stop it first")),
                 qPrintable(busy.out + busy.err));
        QVERIFY(!QFile::exists(reversePath));
        QVERIFY2(running.stop(), qPrintable(running.transcript()));

        // Template naming cannot be inverted.
        spec.naming = QStringLiteral("{\"policy\": \"template\", \"template\": \"copy-${topic}\"}");
        const QString templated = writeProfile(m_dir.path(), topic + QStringLiteral("-tpl.mirrorjob"), spec);
        const ExeResult tpl =
            runMirrordesk({QStringLiteral("reverse"), templated, QStringLiteral("--output"), reversePath}, 60000);
        QVERIFY2(tpl.exitCode == 1 && tpl.err.contains(QLatin1String("template")), qPrintable(tpl.out + tpl.err));
        QVERIFY(!QFile::exists(reversePath));

        const ExeResult usage = runMirrordesk({QStringLiteral("reverse"), forward}, 60000);
        QVERIFY2(usage.exitCode == 2 && usage.err.contains(QLatin1String("--output")), qPrintable(usage.err));
    }
};

QTEST_GUILESS_MAIN(TestReverse)
#include "tst_reverse.moc"
