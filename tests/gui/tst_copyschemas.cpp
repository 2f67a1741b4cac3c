// Records in the registry's wire format leaving the message browser, offscreen:
// the copy dialog checks their schema ids on both clusters' registries before
// copying selected records (the real registry of the shared harness for the
// source; the same one, or the harness's second real registry, which numbers
// its schemas on its own, for the target), warns and waits for "Copy anyway",
// and then copies the bytes as they are to the real target broker. A range
// copy reads its records as it runs: the ids it reads are checked the same way
// and listed beside the result. The CSV export writes decoded values when the
// table shows them. No fake registry: both registries are real Apicurios.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryPair.h"
#include "RegistryTestEnv.h"
#include "engine/admin/AdminClient.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/dialogs/CopyMessagesDialog.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace md::test;

namespace {

QByteArray wire(int id, const QByteArray &payload)
{
    QByteArray b(5, '\0');
    for (int i = 0; i < 4; ++i)
        b[4 - i] = char((id >> (8 * i)) & 0xff);
    return b + payload;
}

QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row << field;
            field.clear();
            rows << row;
            row.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    return rows;
}

} // namespace

class TstCopySchemas final : public QObject {
    Q_OBJECT

    QString m_url;
    QString m_second;
    int m_id = 0;
    QString m_topic;

    // `text` on `client` under `subject`, or 0 with a test failure.
    static int registerAvro(SchemaRegistryClient &client, const QString &subject, const QByteArray &text)
    {
        RegistryError error;
        const std::optional<int> id = client.registerSchema(subject, QStringLiteral("AVRO"), text, {}, &error);
        if (!id)
            qWarning("registering %s: %s", qPrintable(subject), qPrintable(error.message));
        return id.value_or(0);
    }

    CopySpec spec(const QString &targetRegistry) const
    {
        CopySpec s;
        s.source = clusterConfig(QStringLiteral("source"));
        s.source.schemaRegistry.url = m_url;
        s.target = clusterConfig(QStringLiteral("target"));
        s.target.schemaRegistry.url = targetRegistry;
        s.targetTopic = m_topic;
        KafkaMessage schemaRecord;
        schemaRecord.topic = QStringLiteral("orders");
        schemaRecord.partition = 0;
        schemaRecord.offset = 1;
        schemaRecord.key = QByteArray("k1");
        schemaRecord.value = wire(m_id, QByteArray("\x54", 1)); // Avro long 42
        KafkaMessage plain = schemaRecord;
        plain.offset = 2;
        plain.value = QByteArray("plain");
        s.messages = {schemaRecord, plain};
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        MD_REQUIRE_SECOND_REGISTRY();
        m_url = registryUrl();
        m_second = secondRegistryUrl();
        SchemaRegistryClient client(SchemaRegistryConfig{.url = m_url});
        RegistryError error;
        const QString subject = uniqueName(QStringLiteral("copyschemas")) + QStringLiteral("-value");
        const std::optional<int> id = client.registerSchema(subject, QStringLiteral("AVRO"), "\"long\"", {}, &error);
        QVERIFY2(id, qPrintable(error.message));
        m_id = *id;
        m_topic = uniqueName(QStringLiteral("copyschemas"));
        QString kafkaError;
        QVERIFY2(createTopic(targetBootstrap(), m_topic, 1, {}, &kafkaError), qPrintable(kafkaError));
    }

    void warnsAboutAnIdTheTargetLacksThenCopiesTheBytes()
    {
        // A schema registered on the source only, with the counters level: the
        // second registry has no schema with its id.
        SchemaRegistryClient source(SchemaRegistryConfig{.url = m_url});
        SchemaRegistryClient second(SchemaRegistryConfig{.url = m_second});
        QString error;
        QVERIFY2(alignSchemaIds(source, second, &error), qPrintable(error));
        // A text new to the registry (a known one keeps the id it had).
        const QString name = uniqueName(QStringLiteral("lacked")).replace(QLatin1Char('-'), QLatin1Char('_'));
        m_id = registerAvro(source, name + QStringLiteral("-value"),
                            QStringLiteral(R"({"type":"record","name":"%1","fields":[{"name":"n","type":"long"}]})")
                                .arg(name)
                                .toUtf8());
        QVERIFY(m_id > 0);
        CopyMessagesDialog dialog(spec(m_second), {m_topic});
        dialog.show();
        QSignalSpy checked(&dialog, &CopyMessagesDialog::schemaCheckFinished);
        QSignalSpy copied(&dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog.start());
        QVERIFY(dialog.isCheckingSchemas());
        QVERIFY(checked.wait(20000));
        QCOMPARE(dialog.schemaCheck().ids, QList<int>{m_id});
        const QString warning = dialog.schemaWarningText();
        QVERIFY2(warning.contains(QStringLiteral("schema id %1: the copied records will point at it, which on the "
                                                 "target registry (%2) is absent")
                                      .arg(m_id)
                                      .arg(m_second)),
                 qPrintable(warning));
        QCOMPARE(dialog.startButtonText(), QStringLiteral("Copy anyway"));
        // It waits for the user: nothing copied.
        QTest::qWait(300);
        QVERIFY(!dialog.isRunning());
        QCOMPARE(copied.count(), 0);

        // Copy anyway: the bytes arrive as they were, prefix and all.
        QVERIFY(dialog.start());
        QVERIFY(copied.wait(30000));
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("copied 2 records")), qPrintable(dialog.resultText()));
        const auto onTarget = consumeAll(targetBootstrap(), m_topic, &error);
        QVERIFY2(onTarget, qPrintable(error));
        QCOMPARE(onTarget->size(), 2);
        QCOMPARE(onTarget->at(0).value, std::optional<QByteArray>(wire(m_id, QByteArray("\x54", 1))));
    }

    void sameRegistryCopiesWithoutAsking()
    {
        CopyMessagesDialog dialog(spec(m_url), {m_topic});
        QSignalSpy checked(&dialog, &CopyMessagesDialog::schemaCheckFinished);
        QSignalSpy copied(&dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog.start());
        QVERIFY(checked.wait(20000));
        QVERIFY2(dialog.schemaWarningText().isEmpty(), qPrintable(dialog.schemaWarningText()));
        QVERIFY(copied.wait(30000)); // no second click needed
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("copied 2 records")), qPrintable(dialog.resultText()));
    }

    void rangeCopyChecksTheIdsItReads()
    {
        // Counters level, then: one text on both (the same id, the same schema),
        // one text each (the same id, another schema on the target), one text on
        // the source only (an id the target lacks).
        SchemaRegistryClient source(SchemaRegistryConfig{.url = m_url});
        SchemaRegistryClient second(SchemaRegistryConfig{.url = m_second});
        QString error;
        QVERIFY2(alignSchemaIds(source, second, &error), qPrintable(error));
        const QString base = uniqueName(QStringLiteral("range")).replace(QLatin1Char('-'), QLatin1Char('_'));
        auto record = [&](const char *name) {
            return QStringLiteral(R"({"type":"record","name":"%1_%2","fields":[{"name":"n","type":"long"}]})")
                .arg(base, QLatin1String(name))
                .toUtf8();
        };
        const QString subject = base + QStringLiteral("-value");
        const int same = registerAvro(source, subject, record("same"));
        QCOMPARE(registerAvro(second, subject, record("same")), same);
        const int differs = registerAvro(source, subject, record("source"));
        const QString otherSubject = base + QStringLiteral("_other-value");
        QCOMPARE(registerAvro(second, otherSubject, record("target")), differs);
        const int absent = registerAvro(source, base + QStringLiteral("-key"), record("key"));
        QVERIFY(same > 0 && differs > same && absent > differs);

        // The source partition: keys and values in the wire format, plain ones,
        // nulls, and the same ids again and again.
        const QString topic = uniqueName(QStringLiteral("rangeschemas"));
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const QByteArray n42("\x54", 1);
        QList<TestRecord> records;
        auto add = [&records](std::optional<QByteArray> key, std::optional<QByteArray> value) {
            TestRecord r;
            r.key = std::move(key);
            r.value = std::move(value);
            r.partition = 0;
            records << r;
        };
        add(QByteArray("k0"), wire(same, n42));
        add(wire(absent, n42), QByteArray("plain"));
        add(std::nullopt, wire(differs, n42));
        add(QByteArray("k3"), std::nullopt);
        for (int i = 0; i < 40; ++i)
            add(QByteArray("k") + QByteArray::number(i), wire(i % 2 ? same : differs, n42));
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error), qPrintable(error));

        CopySpec range;
        range.source = clusterConfig(QStringLiteral("source"));
        range.source.schemaRegistry.url = m_url;
        range.target = clusterConfig(QStringLiteral("target"));
        range.target.schemaRegistry.url = m_second;
        range.sourceTopic = topic;
        range.sourcePartition = 0;
        range.targetTopic = topic;
        CopyMessagesDialog dialog(range, {topic});
        QSignalSpy copied(&dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog.start());
        QVERIFY(!dialog.isCheckingSchemas()); // nothing is known before the records are read
        QVERIFY(copied.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isCheckingSchemas(), 20000);
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("copied 44 records")), qPrintable(dialog.resultText()));
        QCOMPARE(dialog.schemaCheck().ids, (QList<int>{same, differs, absent}));
        const QStringList problems = dialog.schemaCheck().problems;
        QCOMPARE(problems.size(), 2);
        const QString prefix = QStringLiteral("schema id %1: the copied records will point at it, which on the target "
                                              "registry (%2) is ");
        QVERIFY2(problems.contains(prefix.arg(differs).arg(m_second) + otherSubject +
                                   QStringLiteral(" version 1 (a different AVRO schema)")),
                 qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(problems.contains(prefix.arg(absent).arg(m_second) + QStringLiteral("absent")),
                 qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(dialog.schemaWarningText().contains(problems.first()), qPrintable(dialog.schemaWarningText()));
        QVERIFY(dialog.schemaCheck().notes.isEmpty());

        // The bytes went as they were.
        const auto onTarget = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(onTarget, qPrintable(error));
        QCOMPARE(onTarget->size(), records.size());
        for (qsizetype i = 0; i < records.size(); ++i) {
            QCOMPARE(onTarget->at(i).key, records.at(i).key);
            QCOMPARE(onTarget->at(i).value, records.at(i).value);
        }
    }

    void plainRecordsAreNotChecked()
    {
        CopySpec s = spec(QStringLiteral("http://127.0.0.1:1"));
        s.messages.removeFirst();
        CopyMessagesDialog dialog(s, {m_topic});
        QSignalSpy copied(&dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog.start());
        QVERIFY(!dialog.isCheckingSchemas());
        QVERIFY(dialog.isRunning());
        QVERIFY(copied.wait(30000));
    }

    void csvExportWritesDecodedValuesWhenShown()
    {
        AdminClient admin;
        MessagesPanel panel(&admin);
        ClusterConfig own;
        own.bootstrap = QStringLiteral("127.0.0.1:1");
        own.schemaRegistry.url = QStringLiteral("http://127.0.0.1:1");
        panel.setClusters(own, {});
        KafkaMessage decoded;
        decoded.topic = QStringLiteral("orders");
        decoded.partition = 0;
        decoded.offset = 4;
        decoded.key = QByteArray("k");
        decoded.value = QByteArray("\x00\x00\x00\x00\x11\x06p-1", 9);
        decoded.valueDecoded.status = DecodedPart::Status::Decoded;
        decoded.valueDecoded.json = "{\"id\":\"p-1\",\"q\":\"a,\\\"b\"}";
        decoded.valueDecoded.schemaId = 17;
        decoded.valueDecoded.type = QStringLiteral("AVRO");
        decoded.valueDecoded.subject = QStringLiteral("orders-value");
        decoded.valueDecoded.version = 3;
        KafkaMessage failed = decoded;
        failed.offset = 5;
        failed.valueDecoded = {};
        failed.valueDecoded.status = DecodedPart::Status::Failed;
        failed.valueDecoded.schemaId = 99;
        failed.valueDecoded.error = QStringLiteral("schema 99 is not in the registry");
        panel.model()->setMessages({decoded, failed});
        QCOMPARE(panel.model()->displayMode(), MessageTableModel::DisplayMode::Decoded);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.csv"));
        QString error;
        QVERIFY2(panel.exportMessages(path, true, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QStringList> rows = parseCsv(QString::fromUtf8(f.readAll()));
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(0),
                 (QStringList{QStringLiteral("topic"), QStringLiteral("partition"), QStringLiteral("offset"),
                              QStringLiteral("timestamp"), QStringLiteral("key"), QStringLiteral("value"),
                              QStringLiteral("headers"), QStringLiteral("keySchema"), QStringLiteral("keyDecoded"),
                              QStringLiteral("valueSchema"), QStringLiteral("valueDecoded")}));
        QCOMPARE(rows.at(1).value(7), QString()); // the key is plain
        QCOMPARE(rows.at(1).value(8), QString());
        QCOMPARE(rows.at(1).value(9), QStringLiteral("schema 17 (AVRO, orders-value v3)"));
        QCOMPARE(rows.at(1).value(10), QStringLiteral("{\"id\":\"p-1\",\"q\":\"a,\\\"b\"}"));
        QCOMPARE(rows.at(2).value(9), QStringLiteral("schema 99; not decoded: schema 99 is not in the registry"));
        QCOMPARE(rows.at(2).value(10), QString());

        // Not asked for (the table shows the bytes): the columns as before.
        panel.setDisplayMode(MessageTableModel::DisplayMode::Text);
        QVERIFY2(panel.exportMessages(path, true, &error), qPrintable(error));
        QFile g(path);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(parseCsv(QString::fromUtf8(g.readAll())).at(0).size(), 7);
    }
};

QTEST_MAIN(TstCopySchemas)
#include "tst_copyschemas.moc"
