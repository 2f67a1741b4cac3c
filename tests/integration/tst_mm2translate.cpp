// MM2-format checkpoints read by MM2's own client: a real consumer group reads
// part of a source topic and commits; the job mirrors it with group sync and
// "checkpoints" on, onto a target topic that already held records (so target
// offsets differ from source offsets); then RemoteClusterUtils.translateOffsets
// from Kafka's connect-mirror-client (tests/integration/java/Translate.java, in
// Java's source-file mode) must give, for that group, exactly the target
// offsets MirrorDesk's translation wrote to the target group, and follow when
// the group moves on; for prefix naming (both separators) and identity naming.
// A checkpoints topic that cannot be written is a job event.

#include "failover_support.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

using Offsets = QMap<QPair<QString, int>, qint64>;

struct Translated {
    QString topicShape; // "partitions N cleanup.policy P" of the checkpoints topic
    Offsets offsets;
};

// Runs Translate.java against `bootstrap`; nullopt (and *error) when it fails.
// `separator`: MM2's replication.policy.separator, empty for its default.
std::optional<Translated> translateWithMm2(const QString &bootstrap, const QString &alias, const QString &group,
                                           const QString &separator, QString *error)
{
    const KafkaTools tools = kafkaTools(QStringLiteral("connect-mirror-client"));
    if (!tools.ok()) {
        *error = tools.error;
        return std::nullopt;
    }
    QStringList args{QStringLiteral("-Xms32m"),
                     QStringLiteral("-Xmx256m"),
                     QStringLiteral("-XX:+UseSerialGC"),
                     QStringLiteral("-XX:TieredStopAtLevel=1"),
                     QStringLiteral("-Djava.awt.headless=true"),
                     QStringLiteral("-cp"),
                     tools.libs + QStringLiteral("/*"),
                     QStringLiteral(MIRRORDESK_SOURCE_DIR "/tests/integration/java/Translate.java"),
                     bootstrap,
                     alias,
                     group};
    if (!separator.isEmpty())
        args << separator;
    QProcess p;
    p.start(tools.java, args);
    const ExeResult r = finishProcess(p, 120000);
    if (r.exitCode != 0) {
        *error =
            QStringLiteral("Translate.java: exit %1\n%2\n%3").arg(r.exitCode).arg(r.out.right(3000), r.err.right(3000));
        return std::nullopt;
    }
    Translated t;
    static const QRegularExpression topicLine(QStringLiteral("^topic \\S+ (partitions \\d+ cleanup.policy \\S+)$"));
    static const QRegularExpression offsetLine(QStringLiteral("^offset (\\S+) (\\d+) (\\d+)$"));
    for (const QString &l : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (const auto m = topicLine.match(l); m.hasMatch())
            t.topicShape = m.captured(1);
        else if (const auto o = offsetLine.match(l); o.hasMatch())
            t.offsets.insert({o.captured(1), o.captured(2).toInt()}, o.captured(3).toLongLong());
    }
    return t;
}

Offsets offsetsOf(const QString &topic, const QMap<int, qint64> &byPartition)
{
    Offsets out;
    for (auto it = byPartition.cbegin(); it != byPartition.cend(); ++it)
        out.insert({topic, it.key()}, it.value());
    return out;
}

QString describe(const Offsets &o)
{
    QStringList parts;
    for (auto it = o.cbegin(); it != o.cend(); ++it)
        parts << QStringLiteral("%1[%2]=%3").arg(it.key().first).arg(it.key().second).arg(it.value());
    return parts.join(QStringLiteral(", "));
}

} // namespace

class TstMm2Translate final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS();
        MD_REQUIRE_KAFKA_TOOLS();
        const KafkaTools mm2 = kafkaTools(QStringLiteral("connect-mirror-client"));
        QVERIFY2(mm2.ok(), qPrintable(mm2.error));
        QVERIFY2(QFile::exists(mirrordeskExe()), qPrintable(mirrordeskExe() + QStringLiteral(" was not built")));
        QVERIFY(m_dir.isValid());
    }

    void remoteClusterUtilsFindsTheTranslatedOffsets_data()
    {
        QTest::addColumn<QString>("naming");    // the profile's
        QTest::addColumn<QString>("prefix");    // of the target topic
        QTest::addColumn<QString>("separator"); // MM2's replication.policy.separator, empty: its default
        QTest::addColumn<QString>("alias");     // checkpoints.sourceAlias, empty: source.alias ("src")
        // Prefix naming is MM2's DefaultReplicationPolicy; identity its
        // IdentityReplicationPolicy, whose checkpoints topic is named the same.
        // Kafka refuses src_checkpoints_internal beside src.checkpoints.internal
        // ('.' and '_' collide in topic names): "_" gets an alias of its own.
        QTest::newRow("prefix") << QStringLiteral("{\"policy\": \"prefix\", \"separator\": \".\"}")
                                << QStringLiteral("src.") << QString() << QString();
        QTest::newRow("prefix _") << QStringLiteral("{\"policy\": \"prefix\", \"separator\": \"_\"}")
                                  << QStringLiteral("src_") << QStringLiteral("_") << QStringLiteral("mm2-under");
        QTest::newRow("identity") << QStringLiteral("{\"policy\": \"identity\"}") << QString() << QString()
                                  << QString();
    }

    void remoteClusterUtilsFindsTheTranslatedOffsets()
    {
        QFETCH(QString, naming);
        QFETCH(QString, prefix);
        QFETCH(QString, separator);
        QFETCH(QString, alias);
        const QString topic = uniqueName(QStringLiteral("ckpt"));
        const QString group = uniqueName(QStringLiteral("ckpt-app"));
        const QString targetTopic = prefix + topic;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, countedRecords(2, 10), &error), qPrintable(error));
        // 4 and 1 records already on the target topic: copies land at source + 4 and source + 1.
        QVERIFY2(createTopic(targetBootstrap(), targetTopic, 2, {}, &error), qPrintable(error));
        QList<TestRecord> earlier;
        for (int i = 0; i < 5; ++i) {
            TestRecord r;
            r.partition = i < 4 ? 0 : 1;
            r.value = QByteArray("earlier");
            earlier.append(r);
        }
        QVERIFY2(produce(targetBootstrap(), targetTopic, earlier, &error), qPrintable(error));

        GroupMember member;
        QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
        QVERIFY2(member.consumeAndCommit({{0, 3}, {1, 6}}, &error), qPrintable(error));
        member.close();

        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.naming = naming;
        spec.extra = QStringLiteral(",\n \"groups\": {\"include\": [\"%1\"]}, \"groupSyncIntervalMs\": 1000,"
                                    " \"checkpoints\": {\"enabled\": true%2}")
                         .arg(jsonEscaped(QRegularExpression::escape(group)),
                              alias.isEmpty() ? QString() : QStringLiteral(", \"sourceAlias\": \"%1\"").arg(alias));
        const QString profile = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        MirrorRun run(QStringLiteral("run with checkpoints"));
        QVERIFY(run.start({QStringLiteral("run"), profile}));
        QVERIFY2(MirrorRun::waitUntil([&] { return run.caughtUp() || run.finished(); }, 90000),
                 qPrintable(run.transcript()));

        // MirrorDesk's translation, as group sync wrote it to the target group.
        const auto targetGroupAt = [&](const QMap<int, qint64> &expected) {
            QString e;
            const auto o = committedOffsets(targetBootstrap(), group, targetTopic, 2, &e);
            return o && *o == expected;
        };
        const QMap<int, qint64> first{{0, 3 + 4}, {1, 6 + 1}};
        QVERIFY2(MirrorRun::waitUntil([&] { return targetGroupAt(first); }, 20000), qPrintable(run.transcript()));

        auto mm2 = translateWithMm2(targetBootstrap(), alias.isEmpty() ? QStringLiteral("src") : alias, group,
                                    separator, &error);
        QVERIFY2(mm2, qPrintable(error + run.transcript()));
        QCOMPARE(mm2->topicShape, QStringLiteral("partitions 1 cleanup.policy compact"));
        QVERIFY2(mm2->offsets == offsetsOf(targetTopic, first),
                 qPrintable(QStringLiteral("MM2 read: %1").arg(describe(mm2->offsets))));

        // The group moves on at the source: the checkpoints follow (the newer record wins).
        GroupMember again;
        QVERIFY2(again.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
        QVERIFY2(again.commit({{0, 9}, {1, 10}}, &error), qPrintable(error));
        again.close();
        const QMap<int, qint64> second{{0, 9 + 4}, {1, 10 + 1}}; // 11 on partition 1: the target's end
        QVERIFY2(MirrorRun::waitUntil([&] { return targetGroupAt(second); }, 20000), qPrintable(run.transcript()));
        mm2 = translateWithMm2(targetBootstrap(), alias.isEmpty() ? QStringLiteral("src") : alias, group, separator,
                               &error);
        QVERIFY2(mm2, qPrintable(error + run.transcript()));
        QVERIFY2(mm2->offsets == offsetsOf(targetTopic, second),
                 qPrintable(QStringLiteral("MM2 read: %1").arg(describe(mm2->offsets))));

        QVERIFY2(!run.err().contains(QStringLiteral("MM2 checkpoints")), qPrintable(run.transcript()));
        QVERIFY2(run.stop(), qPrintable(run.transcript()));
    }

    // As in MM2 (emit.checkpoints without sync.group.offsets): checkpoints
    // while the target group is left alone.
    void checkpointsWithoutGroupSync()
    {
        const QString topic = uniqueName(QStringLiteral("ckpt-only"));
        const QString group = uniqueName(QStringLiteral("ckpt-only-app"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, QList<TestRecord>(10), &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), targetTopic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(targetBootstrap(), targetTopic, QList<TestRecord>(2), &error), qPrintable(error));
        GroupMember member;
        QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
        QVERIFY2(member.consumeAndCommit({{0, 4}}, &error), qPrintable(error));
        member.close();

        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group},
                               QStringLiteral(", \"syncGroupOffsets\": false, \"groupSyncIntervalMs\": 1000,"
                                              " \"checkpoints\": {\"enabled\": true}"));
        MirrorRun run(QStringLiteral("run with checkpoints only"));
        QVERIFY(run.start({QStringLiteral("run"), profile}));
        QVERIFY2(MirrorRun::waitUntil([&] { return run.caughtUp() || run.finished(); }, 90000),
                 qPrintable(run.transcript()));
        const Offsets expected{{{targetTopic, 0}, 4 + 2}};
        std::optional<Translated> mm2;
        QVERIFY2(MirrorRun::waitUntil(
                     [&] {
                         mm2 = translateWithMm2(targetBootstrap(), QStringLiteral("src"), group, {}, &error);
                         return mm2 && mm2->offsets == expected;
                     },
                     40000),
                 qPrintable(error + (mm2 ? describe(mm2->offsets) : QString()) + run.transcript()));
        const auto target = committedOffsets(targetBootstrap(), group, targetTopic, 1, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(target->value(0), qint64(-1));
        QVERIFY2(run.stop(), qPrintable(run.transcript()));
    }

    // A checkpoints topic Kafka refuses (it collides with one that differs only
    // in '.' and '_') is a warning event of the running job, which goes on.
    void aFailedWriteIsAJobEvent()
    {
        const QString topic = uniqueName(QStringLiteral("ckpt-fail"));
        const QString group = uniqueName(QStringLiteral("ckpt-fail-app"));
        const QString alias = uniqueName(QStringLiteral("mm2-taken"));
        QString error;
        QVERIFY2(createTopic(targetBootstrap(), alias + QStringLiteral(".checkpoints.internal"), 1, {}, &error),
                 qPrintable(error));
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, {TestRecord{}, TestRecord{}}, &error), qPrintable(error));
        GroupMember member;
        QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
        QVERIFY2(member.consumeAndCommit({{0, 1}}, &error), qPrintable(error));
        member.close();

        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.naming = QStringLiteral("{\"policy\": \"prefix\", \"separator\": \"_\"}");
        spec.extra = QStringLiteral(",\n \"groups\": {\"include\": [\"%1\"]}, \"groupSyncIntervalMs\": 1000,"
                                    " \"checkpoints\": {\"enabled\": true, \"sourceAlias\": \"%2\"}")
                         .arg(jsonEscaped(QRegularExpression::escape(group)), alias);
        const QString profile = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        MirrorRun run(QStringLiteral("run with a refused checkpoints topic"));
        QVERIFY(run.start({QStringLiteral("run"), profile}));
        const QString warning =
            QStringLiteral("warning: group offset sync: cannot write MM2 checkpoints to %1_checkpoints_internal")
                .arg(alias);
        QVERIFY2(MirrorRun::waitUntil([&] { return run.err().contains(warning) || run.finished(); }, 60000),
                 qPrintable(run.transcript()));
        QVERIFY2(run.err().contains(warning), qPrintable(run.transcript()));
        // Group sync itself is not held up by it.
        QVERIFY2(MirrorRun::waitUntil([&] { return run.err().contains(QStringLiteral("synced offsets of 1 group")); },
                                      20000),
                 qPrintable(run.transcript()));
        QVERIFY2(run.stop(), qPrintable(run.transcript()));
    }
};

QTEST_GUILESS_MAIN(TstMm2Translate)
#include "tst_mm2translate.moc"
