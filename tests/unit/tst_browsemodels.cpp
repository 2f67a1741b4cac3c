// Browse models without a network: consumer groups (merge without resets),
// group offsets ("none" for no committed offset), messages (text / JSON / hex
// display, JSON and CSV export written atomically). Every model runs under
// QAbstractItemModelTester in Fatal mode.
#include "model/tables/ConsumerGroupModel.h"
#include "model/tables/GroupOffsetsModel.h"
#include "model/tables/MessageTableModel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

namespace {

ConsumerGroupInfo group(const QString &id, GroupState state, int members)
{
    ConsumerGroupInfo g;
    g.groupId = id;
    g.state = state;
    g.protocol = members ? QStringLiteral("range") : QString();
    g.coordinator = 1;
    for (int i = 0; i < members; ++i) {
        GroupMember m;
        m.memberId = QStringLiteral("m%1").arg(i);
        m.clientId = QStringLiteral("client-%1").arg(i);
        m.host = QStringLiteral("/10.0.0.%1").arg(i);
        m.assignment = {{QStringLiteral("orders"), i}};
        g.members.append(m);
    }
    return g;
}

KafkaMessage message(int partition, qint64 offset, std::optional<QByteArray> key, std::optional<QByteArray> value,
                     QList<RecordHeader> headers = {})
{
    KafkaMessage m;
    m.topic = QStringLiteral("orders");
    m.partition = partition;
    m.offset = offset;
    m.timestampMs = 1700000000000 + offset;
    m.key = std::move(key);
    m.value = std::move(value);
    m.headers = std::move(headers);
    return m;
}

} // namespace

class TestBrowseModels final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void groupsMergeWithoutReset()
    {
        ConsumerGroupModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setGroups(
            {group(QStringLiteral("b"), GroupState::Stable, 2), group(QStringLiteral("a"), GroupState::Empty, 0)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ConsumerGroupModel::GroupId).data().toString(), QStringLiteral("a"));
        QCOMPARE(model.index(0, ConsumerGroupModel::State).data().toString(), QStringLiteral("Empty"));
        QCOMPARE(model.index(1, ConsumerGroupModel::Members).data().toInt(), 2);
        const QString tip = model.index(1, ConsumerGroupModel::Members).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("client-1 @ /10.0.0.1: orders[1]")), qPrintable(tip));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.setGroups(
            {group(QStringLiteral("b"), GroupState::Empty, 0), group(QStringLiteral("c"), GroupState::Dead, 0)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(0, ConsumerGroupModel::State).data().toString(), QStringLiteral("Empty"));
        QCOMPARE(model.index(1, ConsumerGroupModel::GroupId).data().toString(), QStringLiteral("c"));
        QCOMPARE(resets.size(), 0);
        changed.clear();
        model.setGroups(model.groups()); // unchanged refresh: no signal
        QCOMPARE(changed.size(), 0);
    }

    // Kafka 4's groups: the type column, the KIP-848 states, and a member
    // that is still reconciling shows what it owns and what it moves to.
    void kafka4GroupsShowTypeStateAndTarget()
    {
        ConsumerGroupModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        ConsumerGroupInfo modern = group(QStringLiteral("m"), GroupState::Reconciling, 1);
        modern.type = GroupType::Consumer;
        modern.members.first().targetAssignment = {{QStringLiteral("orders"), 0}, {QStringLiteral("orders"), 1}};
        ConsumerGroupInfo share = group(QStringLiteral("s"), GroupState::Stable, 2);
        share.type = GroupType::Share;
        ConsumerGroupInfo streams;
        streams.groupId = QStringLiteral("t");
        streams.type = GroupType::Streams;
        streams.state = GroupState::Stable;
        model.setGroups({modern, share, streams});
        QCOMPARE(model.index(0, ConsumerGroupModel::State).data().toString(), QStringLiteral("Reconciling"));
        QCOMPARE(model.index(0, ConsumerGroupModel::Type).data().toString(), QStringLiteral("consumer"));
        QCOMPARE(model.index(1, ConsumerGroupModel::Type).data().toString(), QStringLiteral("share"));
        // A share group is described (members counted); a streams group is
        // listed only, its members unknown rather than 0.
        QVERIFY(model.index(1, ConsumerGroupModel::Type)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("start offset")));
        QCOMPARE(model.index(1, ConsumerGroupModel::Members).data().toInt(), 2);
        QCOMPARE(model.index(2, ConsumerGroupModel::Members).data().toString(), QString());
        QVERIFY(model.index(2, ConsumerGroupModel::Type)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("listed only")));
        const QString text = ConsumerGroupModel::assignmentText(modern.members.first());
        QCOMPARE(text, QStringLiteral("orders[0] \u2192 target: orders[0], orders[1]"));
        modern.members.first().targetAssignment = modern.members.first().assignment; // settled
        QCOMPARE(ConsumerGroupModel::assignmentText(modern.members.first()), QStringLiteral("orders[0]"));
        QCOMPARE(model.headerData(ConsumerGroupModel::Type, Qt::Horizontal).toString(), QStringLiteral("Type"));
    }

    void offsetsShowNone()
    {
        GroupOffsetsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setOffsets(QStringLiteral("g"), {{QStringLiteral("t"), 2, -1, 3, {}},
                                               {QStringLiteral("t"), 0, 4, 10, {}},
                                               {QStringLiteral("t"), 1, 5, 5, {}},
                                               {QStringLiteral("s"), 0, 7, -1, {}}});
        QCOMPARE(model.rowCount(), 4);
        // Sorted by topic then partition: s/0, t/0, t/1, t/2.
        QCOMPARE(model.index(0, GroupOffsetsModel::Topic).data().toString(), QStringLiteral("s"));
        QCOMPARE(model.index(0, GroupOffsetsModel::Lag).data().toString(), QStringLiteral("unknown"));
        QCOMPARE(model.index(1, GroupOffsetsModel::Lag).data().toLongLong(), 6);
        QCOMPARE(model.index(2, GroupOffsetsModel::Lag).data().toLongLong(), 0);
        QCOMPARE(model.index(3, GroupOffsetsModel::Committed).data().toString(), QStringLiteral("none"));
        QCOMPARE(model.index(3, GroupOffsetsModel::Lag).data().toString(), QStringLiteral("none"));
        QCOMPARE(model.index(3, GroupOffsetsModel::Lag).data(GroupOffsetsModel::SortRole).toLongLong(), -1);
        QCOMPARE(model.index(3, GroupOffsetsModel::EndOffset).data().toLongLong(), 3);
        QCOMPARE(model.totalLag(), 6);

        // The same group refreshed: one row changes, nothing reset.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.setOffsets(QStringLiteral("g"), {{QStringLiteral("t"), 2, 3, 3, {}},
                                               {QStringLiteral("t"), 0, 4, 10, {}},
                                               {QStringLiteral("t"), 1, 5, 5, {}},
                                               {QStringLiteral("s"), 0, 7, -1, {}}});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(removed.size(), 0);
        QCOMPARE(model.index(3, GroupOffsetsModel::Lag).data().toLongLong(), 0);
        // Another group: the old rows go first.
        model.setOffsets(QStringLiteral("other"), {{QStringLiteral("t"), 0, 1, 2, {}}});
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.groupId(), QStringLiteral("other"));
        model.setOffsets(QStringLiteral("other"), {});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.totalLag(), -1);
    }

    // A share group's position is the start offset: the column says so.
    void shareGroupOffsetsAreStartOffsets()
    {
        GroupOffsetsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setOffsets(QStringLiteral("q"),
                         {{QStringLiteral("t"), 0, 7, 10, {}}, {QStringLiteral("t"), 1, -1, 4, {}}});
        QCOMPARE(model.headerData(GroupOffsetsModel::Committed, Qt::Horizontal).toString(),
                 QStringLiteral("Committed"));
        QSignalSpy header(&model, &QAbstractItemModel::headerDataChanged);
        model.setShareGroup(true);
        QCOMPARE(header.size(), 1);
        QCOMPARE(model.headerData(GroupOffsetsModel::Committed, Qt::Horizontal).toString(),
                 QStringLiteral("Start offset"));
        QVERIFY(model.index(1, GroupOffsetsModel::Committed)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("no start offset")));
        QCOMPARE(model.index(0, GroupOffsetsModel::Lag).data().toLongLong(), 3);
        QCOMPARE(model.totalLag(), 3);
        model.setShareGroup(true);
        QCOMPARE(header.size(), 1);
    }

    void messageDisplayModes()
    {
        MessageTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setMessages({message(0, 5, std::nullopt, QByteArray("{\"a\":1,\"b\":[true]}"),
                                   {{QStringLiteral("h"), QByteArray("x")}, {QStringLiteral("n"), std::nullopt}}),
                           message(1, 7, QByteArray(""), QByteArray("\x00\xff", 2))});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, MessageTableModel::Key).data().toString(), QStringLiteral("(null)"));
        QVERIFY(!model.index(0, MessageTableModel::Key).data(MessageTableModel::RawRole).isValid());
        QCOMPARE(model.index(1, MessageTableModel::Key).data(MessageTableModel::RawRole).toByteArray(), QByteArray());
        QVERIFY(model.index(1, MessageTableModel::Key).data(MessageTableModel::RawRole).isValid());
        QCOMPARE(model.index(1, MessageTableModel::Key).data().toString(), QString());
        QCOMPARE(model.index(0, MessageTableModel::Value).data().toString(), QStringLiteral("{\"a\":1,\"b\":[true]}"));
        QCOMPARE(model.index(0, MessageTableModel::Headers).data().toString(), QStringLiteral("h=x, n=(null)"));
        QCOMPARE(model.index(0, MessageTableModel::Timestamp).data().toString(),
                 QStringLiteral("2023-11-14T22:13:20.005Z"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setDisplayMode(MessageTableModel::DisplayMode::Json);
        QCOMPARE(changed.size(), 1);
        const QString pretty = model.index(0, MessageTableModel::Value).data().toString();
        QVERIFY2(pretty.contains(QLatin1String("\n    \"a\": 1,")), qPrintable(pretty));
        // Not JSON: shown as text.
        QCOMPARE(model.index(1, MessageTableModel::Value).data().toString(),
                 QString::fromUtf8(QByteArray("\x00\xff", 2)));
        model.setDisplayMode(MessageTableModel::DisplayMode::Hex);
        QCOMPARE(model.index(1, MessageTableModel::Value).data().toString(), QStringLiteral("00 ff"));
        QCOMPARE(model.index(0, MessageTableModel::Headers).data().toString(), QStringLiteral("h=78, n=(null)"));
        const QString copy = MessageTableModel::describe(*model.messageAt(0), MessageTableModel::DisplayMode::Text);
        QVERIFY(copy.contains(QLatin1String("offset: 5")) && copy.contains(QLatin1String("key: (null)")));
    }

    void messageDecodedMode()
    {
        MessageTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QByteArray avro("\x00\x00\x00\x00\x11\x06p-1", 9);
        KafkaMessage decoded = message(0, 1, QByteArray("k1"), avro);
        decoded.valueDecoded.status = DecodedPart::Status::Decoded;
        decoded.valueDecoded.json = "{\"id\":\"p-1\",\"n\":9007199254740993}";
        decoded.valueDecoded.schemaId = 17;
        decoded.valueDecoded.subject = QStringLiteral("orders-value");
        decoded.valueDecoded.version = 3;
        decoded.valueDecoded.type = QStringLiteral("AVRO");
        KafkaMessage failed = message(0, 2, std::nullopt, QByteArray("\x00\x00\x00\x00\x63raw", 8));
        failed.valueDecoded.status = DecodedPart::Status::Failed;
        failed.valueDecoded.schemaId = 99;
        failed.valueDecoded.error = QStringLiteral("schema 99 is not in the registry");
        const KafkaMessage plain = message(1, 3, QByteArray("k3"), QByteArray("{\"a\": 1}"));
        model.setMessages({decoded, failed, plain});

        auto cell = [&](int row, int col, int role = Qt::DisplayRole) { return model.index(row, col).data(role); };
        // Other modes show the bytes whatever the decoding.
        QCOMPARE(cell(0, MessageTableModel::Value).toString(), QString::fromUtf8(avro));
        QCOMPARE(cell(1, MessageTableModel::Value, MessageTableModel::DecodeErrorRole).toString(),
                 QStringLiteral("schema 99 is not in the registry"));
        QCOMPARE(cell(0, MessageTableModel::Value, MessageTableModel::SchemaRole).toString(),
                 QStringLiteral("schema 17 (AVRO, orders-value v3)"));
        QCOMPARE(cell(2, MessageTableModel::Value, MessageTableModel::SchemaRole).toString(), QString());

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setDisplayMode(MessageTableModel::DisplayMode::Decoded);
        QCOMPARE(changed.size(), 1);
        // Decoded: the JSON as decoded, exact 64-bit numbers and all.
        QCOMPARE(cell(0, MessageTableModel::Value).toString(),
                 QStringLiteral("{\"id\":\"p-1\",\"n\":9007199254740993}"));
        QVERIFY(cell(0, MessageTableModel::Value, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("schema 17 (AVRO, orders-value v3)\n")));
        QCOMPARE(cell(0, MessageTableModel::Key).toString(), QStringLiteral("k1"));
        // Failed: the raw text, the reason in the tooltip.
        QCOMPARE(cell(1, MessageTableModel::Value).toString(), QString::fromUtf8(failed.value->constData(), 8));
        QCOMPARE(cell(1, MessageTableModel::Value, Qt::ToolTipRole).toString(),
                 QStringLiteral("Not decoded: schema 99 is not in the registry\n") +
                     QString::fromUtf8(failed.value->constData(), 8));
        QCOMPARE(cell(1, MessageTableModel::Key).toString(), QStringLiteral("(null)"));
        // Plain: as the JSON mode shows it.
        QVERIFY(cell(2, MessageTableModel::Value).toString().contains(QLatin1String("\n    \"a\": 1")));
        QCOMPARE(cell(2, MessageTableModel::Value).toString(),
                 MessageTableModel::render(plain.value, MessageTableModel::DisplayMode::Json));

        const QString copy = MessageTableModel::describe(failed, MessageTableModel::DisplayMode::Decoded);
        QVERIFY2(copy.contains(QLatin1String("value schema: schema 99; not decoded: schema 99 is not in the registry")),
                 qPrintable(copy));
        const QJsonObject json = MessageTableModel::toJson(decoded);
        const QJsonObject v = json.value(QStringLiteral("valueDecoded")).toObject();
        QCOMPARE(v.value(QStringLiteral("schemaId")).toInt(), 17);
        QCOMPARE(v.value(QStringLiteral("subject")).toString(), QStringLiteral("orders-value"));
        QCOMPARE(v.value(QStringLiteral("value")).toObject().value(QStringLiteral("n")).toInteger(),
                 Q_INT64_C(9007199254740993));
        QVERIFY(!json.contains(QStringLiteral("keyDecoded")));
        QCOMPARE(MessageTableModel::toJson(failed)
                     .value(QStringLiteral("valueDecoded"))
                     .toObject()
                     .value(QStringLiteral("error"))
                     .toString(),
                 QStringLiteral("schema 99 is not in the registry"));

        // A search's batch appends under the tester too.
        model.appendMessages({decoded});
        QCOMPARE(model.rowCount(), 4);
        model.setDisplayMode(MessageTableModel::DisplayMode::Text);
        QCOMPARE(cell(3, MessageTableModel::Value).toString(), QString::fromUtf8(avro));
    }

    void exportJsonAndCsv()
    {
        MessageTableModel model;
        model.setMessages({message(0, 5, std::nullopt, QByteArray("plain \"quoted\", text\nline2"),
                                   {{QStringLiteral("h"), QByteArray("x")}, {QStringLiteral("n"), std::nullopt}}),
                           message(1, 7, QByteArray(""), QByteArray("\x00\xff", 2))});
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString json = dir.filePath(QStringLiteral("m.json"));
        QVERIFY2(model.exportJson(json, &error), qPrintable(error));
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonArray array = QJsonDocument::fromJson(jf.readAll()).array();
        QCOMPARE(array.size(), 2);
        const QJsonObject first = array.at(0).toObject();
        QVERIFY(first.value(QStringLiteral("key")).isNull());
        QCOMPARE(first.value(QStringLiteral("value")).toString(), QStringLiteral("plain \"quoted\", text\nline2"));
        QCOMPARE(first.value(QStringLiteral("offset")).toInteger(), 5);
        QCOMPARE(
            first.value(QStringLiteral("headers")).toArray().at(1).toObject().value(QStringLiteral("value")).isNull(),
            true);
        const QJsonObject second = array.at(1).toObject();
        QCOMPARE(second.value(QStringLiteral("key")).toString(QStringLiteral("?")), QString());
        QCOMPARE(second.value(QStringLiteral("value")).toObject().value(QStringLiteral("base64")).toString(),
                 QStringLiteral("AP8="));

        const QString csv = dir.filePath(QStringLiteral("m.csv"));
        QVERIFY2(model.exportCsv(csv, &error, {1}), qPrintable(error));
        QFile cf(csv);
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(cf.readAll());
        QCOMPARE(text, QStringLiteral("topic,partition,offset,timestamp,key,value,headers\r\n"
                                      "\"orders\",1,7,\"2023-11-14T22:13:20.007Z\",\"\",\"base64:AP8=\",\"[]\"\r\n"));
        // Decoded values asked for: four more columns, empty for parts not in the wire format.
        QVERIFY2(model.exportCsv(csv, &error, {1}, true), qPrintable(error));
        cf.close();
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(cf.readAll()),
                 QStringLiteral("topic,partition,offset,timestamp,key,value,headers,keySchema,keyDecoded,valueSchema,"
                                "valueDecoded\r\n"
                                "\"orders\",1,7,\"2023-11-14T22:13:20.007Z\",\"\",\"base64:AP8=\",\"[]\",,,,\r\n"));
        QVERIFY2(model.exportCsv(csv, &error), qPrintable(error));
        cf.close();
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QString all = QString::fromUtf8(cf.readAll());
        // Null key: an empty field; quotes doubled; the newline kept inside quotes.
        QVERIFY2(all.contains(QLatin1String(
                     "\"orders\",0,5,\"2023-11-14T22:13:20.005Z\",,\"plain \"\"quoted\"\", text\nline2\",")),
                 qPrintable(all));

        // Failures name the place and leave the old file alone.
        QVERIFY(!model.exportCsv(csv, &error, {9}));
        QVERIFY2(error.contains(QLatin1String("row 9")), qPrintable(error));
        const QString bad = dir.filePath(QStringLiteral("missing-dir/m.json"));
        QVERIFY(!model.exportJson(bad, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY(!QFile::exists(bad));
    }
};

QTEST_GUILESS_MAIN(TestBrowseModels)
#include "tst_browsemodels.moc"
