// Job profiles that are right: the shipped examples load and resolve, shorthands
// and defaults, the group sync, ACL sync, offset map and delivery keys, the JSON round
// trip and atomic save. Resolving into the spec: tst_profileresolve.

#include "JobProfileTestUtil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <sys/stat.h>

using namespace md;
using namespace md::test;

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstJobProfile final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ------------------------------------------------------------ good profiles

    void designExampleLoads()
    {
        // A complete example profile, verbatim.
        const QByteArray design =
            "{\n"
            "  \"mirrordesk\": 1,\n"
            "  \"name\": \"orders to DR\",\n"
            "  \"source\": { \"alias\": \"eu\", \"bootstrap\": \"kafka-eu:9092\",\n"
            "              \"security\": \"plaintext\",\n"
            "              \"sasl\": { \"mechanism\": \"SCRAM-SHA-512\", \"username\": \"mirror\",\n"
            "                        \"password\": \"${env:EU_PASSWORD}\" },\n"
            "              \"ssl\": { \"ca\": \"/etc/ssl/eu-ca.pem\" },\n"
            "              \"properties\": { \"client.rack\": \"eu-1a\" } },\n"
            "  \"target\": { \"alias\": \"dr\", \"bootstrap\": \"kafka-dr:9092\", \"security\": \"plaintext\" },\n"
            "  \"topics\": { \"include\": [\"orders\\\\..*\"], \"exclude\": [\".*\\\\.internal\"] },\n"
            "  \"naming\": { \"policy\": \"prefix\", \"separator\": \".\" },\n"
            "  \"start\": \"earliest\",\n"
            "  \"delivery\": \"at-least-once\",\n"
            "  \"createTopics\": true,\n"
            "  \"syncTopicConfigs\": true,\n"
            "  \"throttleBytesPerSecond\": 0\n"
            "}";
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(design, QStringLiteral("design"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        // Its sasl and ssl blocks are written with security plaintext: said, not fatal.
        QCOMPARE(warningsOf(issues).size(), 2);
        QCOMPARE(p.name, QStringLiteral("orders to DR"));
        QCOMPARE(p.source.alias, QStringLiteral("eu"));
        QCOMPARE(p.source.saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(p.source.sslCa, QStringLiteral("/etc/ssl/eu-ca.pem"));
        QCOMPARE(p.source.properties.value(QStringLiteral("client.rack")), QStringLiteral("eu-1a"));
        QCOMPARE(p.include, QStringList{QStringLiteral("orders\\..*")});
        QCOMPARE(p.naming, NamingPolicy::Prefix);
        QCOMPARE(p.start, StartPosition::Earliest);
        QCOMPARE(p.stop, StopCondition::RunForever);
    }

    void sandboxExampleLoadsAndResolves()
    {
        const QString path = QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/sandbox-demo.mirrorjob");
        QList<ProfileIssue> issues;
        const std::optional<JobProfile> p = JobProfile::load(path, &issues);
        QVERIFY2(p, qPrintable(describe(issues)));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QCOMPARE(p->source.bootstrap, QStringLiteral("${sandbox:source}"));

        QStringList asked;
        const ReferenceResolver sandbox = [&](const QString &kind, const QString &arg,
                                              QString *error) -> std::optional<QString> {
            asked << kind + QLatin1Char(':') + arg;
            if (kind != QLatin1String("sandbox")) {
                *error = QStringLiteral("not here");
                return std::nullopt;
            }
            return arg == QLatin1String("source") ? QStringLiteral("127.0.0.1:40001")
                                                  : QStringLiteral("127.0.0.1:40002");
        };
        const std::optional<MirrorJobSpec> spec = p->toSpec(sandbox, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(asked, (QStringList{QStringLiteral("sandbox:source"), QStringLiteral("sandbox:target")}));
        QCOMPARE(spec->source.bootstrap, QStringLiteral("127.0.0.1:40001"));
        QCOMPARE(spec->target.bootstrap, QStringLiteral("127.0.0.1:40002"));
        QCOMPARE(spec->source.alias, QStringLiteral("src"));
        QCOMPARE(spec->naming, NamingPolicy::Prefix);
        QCOMPARE(spec->start, StartPosition::Earliest);
        QCOMPARE(spec->groupId, QStringLiteral("mirrordesk-sandbox-demo"));

        // Without a resolver the sandbox reference is an error naming the key and the reference.
        issues.clear();
        QVERIFY(!p->toSpec({}, &issues));
        QCOMPARE(issues.first().keyPath, QStringLiteral("source.bootstrap"));
        QVERIFY(issues.first().message.contains(QLatin1String("${sandbox:source}")));
    }

    void propertiesBecomeStrings()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(
            profileWith(
                QStringLiteral("source.properties"),
                parse("{\"fetch.max.bytes\": 52428800, \"check.crcs\": true, \"socket.keepalive.enable\": false,\n"
                      "                                  \"client.rack\": \"eu-1a\", \"queued.max.messages.kbytes\": "
                      "1.5}")),
            QStringLiteral("p"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.source.properties.value(QStringLiteral("fetch.max.bytes")), QStringLiteral("52428800"));
        QCOMPARE(p.source.properties.value(QStringLiteral("check.crcs")), QStringLiteral("true"));
        QCOMPARE(p.source.properties.value(QStringLiteral("socket.keepalive.enable")), QStringLiteral("false"));
        QCOMPARE(p.source.properties.value(QStringLiteral("client.rack")), QStringLiteral("eu-1a"));
        QCOMPARE(p.source.properties.value(QStringLiteral("queued.max.messages.kbytes")), QStringLiteral("1.5"));
    }

    void shorthandsAndDefaults()
    {
        QList<ProfileIssue> issues;
        JobProfile p = JobProfile::fromJson(
            profileWith({{QStringLiteral("naming"), QStringLiteral("identity")},
                         {QStringLiteral("topics.include"), QStringLiteral("orders")},
                         {QStringLiteral("stop"), QStringLiteral("caught-up")},
                         {QStringLiteral("source.security"), QStringLiteral("SASL_SSL")},
                         {QStringLiteral("source.sasl"),
                          parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", \"password\": \"${env:X}\"}")}}),
            QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.naming, NamingPolicy::Identity);
        QCOMPARE(p.include, QStringList{QStringLiteral("orders")});
        QCOMPARE(p.stop, StopCondition::CaughtUp);
        QCOMPARE(p.source.security, SecurityProtocol::SaslSsl);

        // A template alone selects the template policy; prefix defaults to ".".
        issues.clear();
        p = JobProfile::fromJson(profileWith(QStringLiteral("naming"), parse("{\"template\": \"dr-${topic}\"}")),
                                 QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.naming, NamingPolicy::Template);
        p = JobProfile::fromJson(profileWith(QStringLiteral("naming"), parse("{\"policy\": \"prefix\"}")),
                                 QStringLiteral("s"), &issues);
        QCOMPARE(p.separator, QStringLiteral("."));

        // Timestamps with offsets are the same instant in UTC; stop after N records.
        issues.clear();
        p = JobProfile::fromJson(
            profileWith({{QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-01T01:00:00+01:00\"}")},
                         {QStringLiteral("stop"), parse("{\"records\": 1000}")}}),
            QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.start, StartPosition::Timestamp);
        QCOMPARE(p.startTimestamp, QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC));
        QCOMPARE(p.stop, StopCondition::AfterRecords);
        QCOMPARE(p.stopAfterRecords, 1000);

        // A UTF-8 byte order mark is accepted.
        issues.clear();
        JobProfile::fromJson("\xEF\xBB\xBF" + profileWith(QStringLiteral("name"), QStringLiteral("bom")),
                             QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
    }

    // ------------------------------------------------------------ writing

    void unknownTopLevelKeysSurviveASave()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(
            profileWith(QStringLiteral("futureFeature"), parse("{\"a\": [1, \"b\"]}")), QStringLiteral("f"), &issues);
        QVERIFY(!hasErrors(issues));
        const QJsonObject written = QJsonDocument::fromJson(p.toJson()).object();
        QCOMPARE(written.value(QStringLiteral("futureFeature")), parse("{\"a\": [1, \"b\"]}"));
    }

    void roundTrip()
    {
        const JobProfile p = fullProfile();
        QVERIFY2(!hasErrors(p.validate()), qPrintable(describe(p.validate())));
        const QByteArray json = p.toJson();
        QVERIFY2(json.startsWith("{\n  \"mirrordesk\": 1,\n  \"name\": "), json.constData());

        QList<ProfileIssue> issues;
        JobProfile back = JobProfile::fromJson(json, QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(back == p);
        QCOMPARE(back.toJson(), json); // stable: writing twice gives the same bytes

        // Every stop form round-trips.
        for (const StopCondition stop :
             {StopCondition::RunForever, StopCondition::CaughtUp, StopCondition::AfterRecords}) {
            JobProfile q = p;
            q.stop = stop;
            q.stopAfterRecords = stop == StopCondition::AfterRecords ? 42 : 0;
            q.start = StartPosition::Latest;
            q.startTimestamp = {};
            if (stop != StopCondition::AtTimestamp)
                q.stopTimestamp = {};
            issues.clear();
            back = JobProfile::fromJson(q.toJson(), QString(), &issues);
            QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
            QVERIFY(back == q);
        }
    }

    void groupSyncKeys()
    {
        // Absent: no group selected, and a saved profile without groups keeps no group keys.
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("x")), QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QVERIFY(p.groupsInclude.isEmpty());
        QVERIFY(p.syncGroupOffsets);
        QCOMPARE(p.groupSyncIntervalMs, 10000);
        QVERIFY(!p.toJson().contains("groups"));
        QVERIFY(!p.toJson().contains("syncGroupOffsets"));

        // Listed: synced by default every 10 s, carried into the spec, written back.
        issues.clear();
        p = JobProfile::fromJson(profileWith(QStringLiteral("groups"),
                                             parse("{\"include\": [\"billing-.*\"], \"exclude\": [\"billing-test\"]}")),
                                 QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.groupsInclude, QStringList{QStringLiteral("billing-.*")});
        QCOMPARE(p.groupsExclude, QStringList{QStringLiteral("billing-test")});
        const std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(spec->groupsInclude, p.groupsInclude);
        QCOMPARE(spec->groupsExclude, p.groupsExclude);
        QVERIFY(spec->syncGroupOffsets);
        QCOMPARE(spec->groupSyncIntervalMs, 10000);
        const QJsonObject written = QJsonDocument::fromJson(p.toJson()).object();
        QCOMPARE(written.value(QStringLiteral("groups")).toObject().value(QStringLiteral("include")).toArray().size(),
                 1);
        QCOMPARE(written.value(QStringLiteral("syncGroupOffsets")).toBool(false), true);
        QCOMPARE(written.value(QStringLiteral("groupSyncIntervalMs")).toInt(), 10000);
        issues.clear();
        QVERIFY(JobProfile::fromJson(p.toJson(), QString(), &issues) == p);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));

        // An exclude list without an include list selects nothing: said so.
        issues.clear();
        JobProfile::fromJson(profileWith(QStringLiteral("groups"), parse("{\"exclude\": [\"x\"]}")), QString(),
                             &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QVERIFY2(describe(issues).contains(QStringLiteral("groups.exclude: no effect without groups.include")),
                 qPrintable(describe(issues)));
    }

    void aclKeys()
    {
        // Absent: no ACL sync, and a saved profile does not mention it.
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("x")), QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(!p.syncAcls);
        QCOMPARE(p.aclSyncIntervalMs, 60000);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        QVERIFY(!p.toJson().contains("acls"));
        std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(!spec->syncAcls);

        // "sync" alone: safe, every 60 s; written back whole, read back the same.
        p = JobProfile::fromJson(profileWith(QStringLiteral("acls"), parse("{\"sync\": true}")), QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(p.syncAcls);
        QCOMPARE(p.aclSyncIntervalMs, JobProfile::DefaultAclSyncIntervalMs);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(spec->syncAcls);
        QCOMPARE(spec->aclSyncIntervalMs, 60000);
        QCOMPARE(spec->aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        QCOMPARE(QJsonDocument::fromJson(p.toJson()).object().value(QStringLiteral("acls")),
                 parse("{\"sync\": true, \"intervalMs\": 60000, \"mode\": \"safe\"}"));
        QVERIFY(JobProfile::fromJson(p.toJson(), QString(), &issues) == p);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));

        // The whole object: into the spec, written back in the table's order, read back the same.
        p = JobProfile::fromJson(
            profileWith(QStringLiteral("acls"), parse("{\"sync\": true, \"intervalMs\": 5000, \"mode\": \"exact\"}")),
            QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(p.syncAcls);
        QCOMPARE(p.aclSyncIntervalMs, 5000);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Exact);
        spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(spec->syncAcls);
        QCOMPARE(spec->aclSyncIntervalMs, 5000);
        QCOMPARE(spec->aclSyncMode, MirrorJobSpec::AclSyncMode::Exact);
        QVERIFY2(p.toJson().contains("\"acls\": {\n    \"sync\": true,\n    \"intervalMs\": 5000,\n    \"mode\": "
                                     "\"exact\"\n  }"),
                 p.toJson().constData());
        QVERIFY(JobProfile::fromJson(p.toJson(), QString(), &issues) == p);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));

        // Off but not at its defaults: kept, so a save loses nothing.
        p = JobProfile::fromJson(profileWith(QStringLiteral("acls"), parse("{\"sync\": false, \"mode\": \"exact\"}")),
                                 QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(!p.syncAcls);
        QCOMPARE(QJsonDocument::fromJson(p.toJson()).object().value(QStringLiteral("acls")),
                 parse("{\"sync\": false, \"intervalMs\": 60000, \"mode\": \"exact\"}"));
        QVERIFY(JobProfile::fromJson(p.toJson(), QString(), &issues) == p);
    }

    void offsetMapKey()
    {
        // Absent: the map is kept, and a saved profile does not mention the key.
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("x")), QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QVERIFY(p.offsetMap);
        QVERIFY(p.toSpec({}, &issues)->offsetMap);
        QVERIFY(!p.toJson().contains("\"offsetMap\""));

        // false: into the spec, written back, read back the same.
        issues.clear();
        p = JobProfile::fromJson(profileWith(QStringLiteral("offsetMap"), false), QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(!p.offsetMap);
        const std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(!spec->offsetMap);
        QCOMPARE(QJsonDocument::fromJson(p.toJson()).object().value(QStringLiteral("offsetMap")), QJsonValue(false));
        const JobProfile back = JobProfile::fromJson(p.toJson(), QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(back == p);

        // Groups listed but only watched (syncGroupOffsets false): fine without the map.
        issues.clear();
        JobProfile::fromJson(profileWith({{QStringLiteral("offsetMap"), false},
                                          {QStringLiteral("groups"), parse("{\"include\": [\"billing-.*\"]}")},
                                          {QStringLiteral("syncGroupOffsets"), false}}),
                             QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));

        // Everything that needs the map is refused, naming offsetMap and what needs it.
        const QList<std::pair<QByteArray, QString>> refused = {
            {profileWith({{QStringLiteral("offsetMap"), false},
                          {QStringLiteral("groups"), parse("{\"include\": [\"billing-.*\"]}")}}),
             QStringLiteral("group offset sync")},
            {profileWith(
                 {{QStringLiteral("offsetMap"), false}, {QStringLiteral("checkpoints"), parse("{\"enabled\": true}")}}),
             QStringLiteral("checkpoints.enabled")},
            {profileWith(
                 {{QStringLiteral("offsetMap"), false}, {QStringLiteral("delivery"), QStringLiteral("exactly-once")}}),
             QStringLiteral("exactly-once")},
        };
        for (const auto &[data, what] : refused) {
            issues.clear();
            const JobProfile r = JobProfile::fromJson(data, QStringLiteral("job.mirrorjob"), &issues);
            const auto e = std::find_if(issues.begin(), issues.end(), [](const ProfileIssue &i) {
                return i.isError() && i.keyPath == QLatin1String("offsetMap");
            });
            QVERIFY2(e != issues.end(), qPrintable(describe(issues)));
            QVERIFY2(e->message.contains(what) && e->message.contains(QStringLiteral("offsetMap is false")),
                     qPrintable(e->toString()));
            QVERIFY2(e->line > 0, qPrintable(e->toString()));
            QVERIFY(!r.toSpec({}, &issues) || hasErrors(issues));
        }

        // A map topic named for a job that keeps no map: said to be ignored.
        issues.clear();
        JobProfile::fromJson(profileWith({{QStringLiteral("offsetMap"), false},
                                          {QStringLiteral("offsetMapTopic"), QStringLiteral("m")}}),
                             QString(), &issues);
        QVERIFY2(!hasErrors(issues) &&
                     describe(issues).contains(QStringLiteral("offsetMapTopic: ignored with offsetMap false")),
                 qPrintable(describe(issues)));
    }

    void deliveryKeys()
    {
        // Absent: at-least-once, and no transaction keys are written.
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("x")), QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.delivery, DeliveryGuarantee::AtLeastOnce);
        QVERIFY(!p.toJson().contains("transactionIntervalMs"));

        // Exactly-once with its transaction bounds: carried into the spec and written back.
        issues.clear();
        p = JobProfile::fromJson(profileWith({{QStringLiteral("delivery"), QStringLiteral("exactly-once")},
                                              {QStringLiteral("transactionIntervalMs"), 250},
                                              {QStringLiteral("transactionMaxRecords"), 5000}}),
                                 QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.delivery, DeliveryGuarantee::ExactlyOnce);
        const std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(spec->delivery, DeliveryGuarantee::ExactlyOnce);
        QCOMPARE(spec->transactionIntervalMs, 250);
        QCOMPARE(spec->transactionMaxRecords, 5000);
        const QJsonObject written = QJsonDocument::fromJson(p.toJson()).object();
        QCOMPARE(written.value(QStringLiteral("delivery")).toString(), QStringLiteral("exactly-once"));
        QCOMPARE(written.value(QStringLiteral("transactionIntervalMs")).toInt(), 250);
        issues.clear();
        QVERIFY(JobProfile::fromJson(p.toJson(), QString(), &issues) == p);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("job.mirrorjob"));
        JobProfile p = fullProfile();
        QString error;
        QVERIFY2(p.save(path, &error), qPrintable(error));
        QList<ProfileIssue> issues;
        std::optional<JobProfile> loaded = JobProfile::load(path, &issues);
        QVERIFY2(loaded, qPrintable(describe(issues)));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QCOMPARE(loaded->fileName, path);
        loaded->fileName.clear();
        QVERIFY(*loaded == p);
        QVERIFY(!p.hasClearSecret());
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        const ino_t firstInode = st.st_ino;

        // Saving again replaces the file in one step (rename: a new inode), leaving no temporary files.
        p.name = QStringLiteral("renamed");
        p.source.hasSasl = true;
        p.source.saslPassword = QStringLiteral("clear-text-password");
        QVERIFY(p.hasClearSecret());
        QVERIFY2(p.save(path, &error), qPrintable(error));
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QVERIFY(st.st_ino != firstInode);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("job.mirrorjob")});
        // A clear secret is readable by the owner only.
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        issues.clear();
        loaded = JobProfile::load(path, &issues);
        QVERIFY(loaded);
        QCOMPARE(loaded->name, QStringLiteral("renamed"));
        QCOMPARE(warningsOf(issues).size(), 1);
        QVERIFY(!describe(issues).contains(QLatin1String("clear-text-password")));

        // A new file with a clear secret is never created readable by others.
        const QString fresh = dir.filePath(QStringLiteral("fresh.mirrorjob"));
        QVERIFY2(p.save(fresh, &error), qPrintable(error));
        QCOMPARE(::stat(QFile::encodeName(fresh).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));

        // A folder that does not exist: an error naming the path, no file.
        const QString bad = dir.filePath(QStringLiteral("missing/dir/job.mirrorjob"));
        QVERIFY(!p.save(bad, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY(!QFileInfo::exists(bad));
    }

    // What a profile leaves out is what the engine does by default: a file
    // with only the required keys gives the spec of MirrorJobSpec's defaults
    // (each default is written once, in MirrorJobSpec.h; this fails when one
    // side moves without the other).
    void leftOutKeysAreTheEnginesDefaults()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(R"({
            "mirrordesk": 1,
            "name": "defaults",
            "source": { "alias": "eu", "bootstrap": "kafka-eu:9092" },
            "target": { "bootstrap": "kafka-dr:9092" },
            "topics": { "include": ["orders"] }
        })",
                                                  QString(), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        const std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        const MirrorJobSpec engine;
        QCOMPARE(spec->excludeInternalTopics, engine.excludeInternalTopics);
        QCOMPARE(spec->naming, engine.naming);
        QCOMPARE(spec->separator, engine.separator);
        QCOMPARE(spec->offsetMap, engine.offsetMap);
        QCOMPARE(spec->start, engine.start);
        QCOMPARE(spec->stop, engine.stop);
        QCOMPARE(spec->delivery, engine.delivery);
        QCOMPARE(spec->transactionIntervalMs, engine.transactionIntervalMs);
        QCOMPARE(spec->transactionMaxRecords, engine.transactionMaxRecords);
        QCOMPARE(spec->createTopics, engine.createTopics);
        QCOMPARE(spec->syncTopicConfigs, engine.syncTopicConfigs);
        QCOMPARE(spec->configExclude, engine.configExclude);
        QCOMPARE(spec->throttleBytesPerSecond, engine.throttleBytesPerSecond);
        QCOMPARE(spec->samplingIntervalMs, engine.samplingIntervalMs);
        QCOMPARE(spec->topicRefreshIntervalMs, engine.topicRefreshIntervalMs);
        QCOMPARE(spec->syncGroupOffsets, engine.syncGroupOffsets);
        QCOMPARE(spec->groupSyncIntervalMs, engine.groupSyncIntervalMs);
        QCOMPARE(spec->emitCheckpoints, engine.emitCheckpoints);
        QCOMPARE(spec->originHeader, engine.originHeader);
        QCOMPARE(spec->syncAcls, engine.syncAcls);
        QCOMPARE(spec->aclSyncIntervalMs, engine.aclSyncIntervalMs);
        QCOMPARE(spec->aclSyncMode, engine.aclSyncMode);
        QCOMPARE(spec->syncSchemas, engine.syncSchemas);
        QCOMPARE(spec->schemaIds, engine.schemaIds);
        QCOMPARE(spec->schemaSyncIntervalMs, engine.schemaSyncIntervalMs);
    }
};

QTEST_GUILESS_MAIN(TstJobProfile)
#include "tst_jobprofile.moc"
