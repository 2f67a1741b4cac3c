// The Schemas tab's subject model under QAbstractItemModelTester (Fatal): the
// TopicNameStrategy mapping (<topic>-key / <topic>-value, and subjects named
// otherwise, such as RecordNameStrategy's "com.acme.Order", belong to no topic),
// whether the topic exists, the list merged by subject on a refresh (no reset,
// details kept, an unchanged refresh emits nothing), details filled in later
// by subject, and the schema text pretty-printed (Avro/JSON indented with keys
// in their order, Protobuf as is).

#include "engine/schema/SchemaCatalog.h"
#include "model/tables/SchemaSubjectModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace md;

Q_DECLARE_METATYPE(md::SubjectTopic::Part)

namespace {

SubjectSummary summary(const QString &subject, int latest, int count, const QString &type, const QString &level,
                       bool own = true)
{
    SubjectSummary s;
    s.subject = subject;
    s.latestVersion = latest;
    s.latestId = 100 + latest;
    s.versionCount = count;
    s.type = type;
    s.compatibility = level;
    s.ownCompatibility = own;
    return s;
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out.append(QString::fromUtf8(s));
    return out;
}

QStringList column(const QAbstractItemModel &m, int col, int role = Qt::DisplayRole)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, col).data(role).toString());
    return out;
}

} // namespace

class TestSchemaSubjectModel final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topicNameStrategy_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<SubjectTopic::Part>("part");
        QTest::addColumn<QString>("topic");
        using P = SubjectTopic::Part;
        QTest::newRow("value") << "orders-value" << P::Value << "orders";
        QTest::newRow("key") << "orders-key" << P::Key << "orders";
        QTest::newRow("dots and dashes") << "eu.orders-v2-value" << P::Value << "eu.orders-v2";
        QTest::newRow("last suffix only") << "a-key-value" << P::Value << "a-key";
        QTest::newRow("RecordNameStrategy") << "com.acme.Order" << P::None << "";
        QTest::newRow("TopicRecordNameStrategy") << "orders-com.acme.Order" << P::None << "";
        QTest::newRow("suffix alone") << "-value" << P::None << "";
        QTest::newRow("case matters") << "orders-Value" << P::None << "";
        QTest::newRow("no dash") << "ordersvalue" << P::None << "";
    }
    void topicNameStrategy()
    {
        QFETCH(QString, subject);
        QFETCH(SubjectTopic::Part, part);
        QFETCH(QString, topic);
        const SubjectTopic t = topicForSubject(subject);
        QCOMPARE(t.part, part);
        QCOMPARE(t.topic, topic);
    }

    void listThenDetailsThenTopics()
    {
        SchemaSubjectModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SchemaSubjectModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);

        model.setSubjects({QStringLiteral("orders-value"), QStringLiteral("com.acme.Order"),
                           QStringLiteral("orders-key"), QStringLiteral("gone-value")});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(column(model, SchemaSubjectModel::Subject),
                 names({"com.acme.Order", "gone-value", "orders-key", "orders-value"}));
        // Listed before read: the name, a pending mark, the topic by name (not said missing yet).
        QCOMPARE(model.index(3, SchemaSubjectModel::Latest).data().toString(), QStringLiteral("\u2026"));
        QCOMPARE(model.index(3, SchemaSubjectModel::Type).data().toString(), QString());
        QCOMPARE(column(model, SchemaSubjectModel::Topic),
                 names({"", "gone (value)", "orders (key)", "orders (value)"}));
        QCOMPARE(model.loadedCount(), 0);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        SubjectSummary broken;
        broken.subject = QStringLiteral("gone-value");
        broken.error = QStringLiteral("The schema registry answered HTTP 404");
        model.setSummaries(
            {summary(QStringLiteral("orders-value"), 3, 2, QStringLiteral("AVRO"), QStringLiteral("BACKWARD")),
             summary(QStringLiteral("com.acme.Order"), 1, 1, QStringLiteral("PROTOBUF"), QStringLiteral("NONE"), false),
             broken, summary(QStringLiteral("not-listed-value"), 1, 1, QString(), QString())});
        QCOMPARE(changed.size(), 3); // one per listed row; the unlisted one is ignored
        QCOMPARE(model.loadedCount(), 3);
        QCOMPARE(model.index(3, SchemaSubjectModel::Latest).data().toInt(), 3);
        QCOMPARE(model.index(3, SchemaSubjectModel::Versions).data().toInt(), 2);
        QCOMPARE(model.index(3, SchemaSubjectModel::Type).data().toString(), QStringLiteral("AVRO"));
        QCOMPARE(model.index(3, SchemaSubjectModel::Compatibility).data().toString(), QStringLiteral("BACKWARD"));
        QCOMPARE(model.index(0, SchemaSubjectModel::Type).data().toString(), QStringLiteral("PROTOBUF"));
        QVERIFY(model.index(0, SchemaSubjectModel::Compatibility)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("global")));
        QCOMPARE(model.index(1, SchemaSubjectModel::Latest).data().toString(), QStringLiteral("?"));
        QCOMPARE(model.index(1, SchemaSubjectModel::Subject).data(Qt::ToolTipRole).toString(), broken.error);
        // The same details again: nothing to say.
        changed.clear();
        model.setSummaries(
            {summary(QStringLiteral("orders-value"), 3, 2, QStringLiteral("AVRO"), QStringLiteral("BACKWARD"))});
        QCOMPARE(changed.size(), 0);

        // The cluster's topics: "gone" is not one of them.
        model.setTopics({QStringLiteral("orders"), QStringLiteral("payments")});
        QCOMPARE(changed.size(), 1); // the topic column, once
        QCOMPARE(column(model, SchemaSubjectModel::Topic),
                 names({"", "gone (value) - no such topic", "orders (key)", "orders (value)"}));
        QVERIFY(model.index(0, SchemaSubjectModel::Topic)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("TopicNameStrategy")));
        changed.clear();
        model.setTopics({QStringLiteral("payments"), QStringLiteral("orders")});
        QCOMPARE(changed.size(), 0);

        // Sorting by version numbers, not text.
        model.setSummaries(
            {summary(QStringLiteral("orders-key"), 12, 12, QStringLiteral("JSON"), QStringLiteral("FULL"))});
        proxy.sort(SchemaSubjectModel::Latest, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, SchemaSubjectModel::Subject).data().toString(), QStringLiteral("orders-key"));
    }

    void refreshMergesBySubject()
    {
        SchemaSubjectModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setSubjects({QStringLiteral("b-value"), QStringLiteral("c-value"), QStringLiteral("d-value")});
        model.setSummaries({summary(QStringLiteral("c-value"), 2, 2, QStringLiteral("JSON"), QStringLiteral("FULL"))});
        const QPersistentModelIndex c(model.index(1, SchemaSubjectModel::Subject));

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // The same list, another order: nothing happens.
        model.setSubjects({QStringLiteral("d-value"), QStringLiteral("b-value"), QStringLiteral("c-value")});
        QCOMPARE(removed.size() + inserted.size() + changed.size() + reset.size(), 0);

        // b goes, a and e come: c keeps its row object and its details.
        model.setSubjects({QStringLiteral("e-value"), QStringLiteral("c-value"), QStringLiteral("a-value"),
                           QStringLiteral("d-value")});
        QCOMPARE(reset.size(), 0);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(changed.size(), 0);
        QCOMPARE(model.subjects(), names({"a-value", "c-value", "d-value", "e-value"}));
        QVERIFY(c.isValid());
        QCOMPARE(c.data().toString(), QStringLiteral("c-value"));
        QCOMPARE(model.index(c.row(), SchemaSubjectModel::Type).data().toString(), QStringLiteral("JSON"));
        QCOMPARE(model.loadedCount(), 1);
        QCOMPARE(model.rowOf(QStringLiteral("d-value")), 2);
        QCOMPARE(model.rowOf(QStringLiteral("b-value")), -1);

        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.loadedCount(), 0);
        QCOMPARE(reset.size(), 0);
    }

    void prettyText_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("pretty");
        QTest::newRow("avro record: key order kept, strings untouched")
            << "AVRO"
            << QByteArray("{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\","
                          "\"doc\":\"a, {b}: \\\"c\\\"\"},"
                          "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"},\"default\":[]}]}")
            << QStringLiteral("{\n"
                              "  \"type\": \"record\",\n"
                              "  \"name\": \"Order\",\n"
                              "  \"fields\": [\n"
                              "    {\n"
                              "      \"name\": \"id\",\n"
                              "      \"type\": \"string\",\n"
                              "      \"doc\": \"a, {b}: \\\"c\\\"\"\n"
                              "    },\n"
                              "    {\n"
                              "      \"name\": \"tags\",\n"
                              "      \"type\": {\n"
                              "        \"type\": \"array\",\n"
                              "        \"items\": \"string\"\n"
                              "      },\n"
                              "      \"default\": []\n"
                              "    }\n"
                              "  ]\n"
                              "}");
        QTest::newRow("avro primitive") << "AVRO" << QByteArray(" \"string\" ") << "\"string\"";
        QTest::newRow("json schema, numbers as written")
            << "JSON" << QByteArray("{ \"$schema\" : \"x\", \"maximum\": 12345678901234567890, \"a\": {} }")
            << "{\n  \"$schema\": \"x\",\n  \"maximum\": 12345678901234567890,\n  \"a\": {}\n}";
        QTest::newRow("protobuf as is") << "PROTOBUF"
                                        << QByteArray("syntax = \"proto3\";\nmessage A { string b = 1; }\n")
                                        << "syntax = \"proto3\";\nmessage A { string b = 1; }\n";
        QTest::newRow("not json: as is") << "AVRO" << QByteArray("{broken") << "{broken";
    }
    void prettyText()
    {
        QFETCH(QString, type);
        QFETCH(QByteArray, text);
        QFETCH(QString, pretty);
        QCOMPARE(prettySchemaText(type, text), pretty);
    }
};

QTEST_GUILESS_MAIN(TestSchemaSubjectModel)
#include "tst_schemasubjectmodel.moc"
