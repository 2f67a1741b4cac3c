// Records in the registry's wire format leaving the message browser, offscreen:
// the copy dialog checks their schema ids on both clusters' registries before
// copying (the real registry of the shared harness for the source; the same
// one, or a fake HTTP registry that lacks the id, for the target), warns and
// waits for "Copy anyway", and then copies the bytes as they are to the real
// target broker; the CSV export writes decoded values when the table shows them.

#include "../integration/registry_fake_support.h"
#include "AdminClient.h"
#include "CopyMessagesDialog.h"
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "MessagesPanel.h"
#include "RegistryTestEnv.h"
#include "SchemaRegistryClient.h"

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
    int m_id = 0;
    QString m_topic;

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
        m_url = registryUrl();
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
        FakeRegistry fake; // knows no id: every lookup is a 404
        CopyMessagesDialog dialog(spec(fake.url()), {m_topic});
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
                                      .arg(fake.url())),
                 qPrintable(warning));
        QCOMPARE(dialog.startButtonText(), QStringLiteral("Copy anyway"));
        // It waits for the user: nothing copied.
        QTest::qWait(300);
        QVERIFY(!dialog.isRunning());
        QCOMPARE(copied.count(), 0);
        QVERIFY(!fake.requests().isEmpty());

        // Copy anyway: the bytes arrive as they were, prefix and all.
        QVERIFY(dialog.start());
        QVERIFY(copied.wait(30000));
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("copied 2 records")), qPrintable(dialog.resultText()));
        QString error;
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
