// The cluster pane's Schemas tab, offscreen, against the real "source" broker
// and the real registry (Apicurio's Confluent API; MD_REQUIRE_BROKERS_NAMED,
// MD_REQUIRE_REGISTRY). The test registers its own subjects under a unique
// prefix (the registry is shared): an Avro record (v1, then v2), a Protobuf
// schema importing another subject's file (a reference), a JSON schema as a
// key, and an Avro record under RecordNameStrategy's name. It checks the list
// (type, latest version, number of versions after v2 and a refresh,
// compatibility: one subject's own level, the global one for the rest), the
// topic each names (one that exists on the broker, one that does not, none),
// the details (version picker, id, references that open their subject, the
// schema text indented, Protobuf as registered), and that a cluster without a
// registry says how to add one. A registry that is down shows its error inline
// naming it; one that does not answer leaves the window responsive.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryTestEnv.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "model/tables/SchemaSubjectModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/SchemaDetails.h"
#include "ui/cluster/SchemasPanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <memory>

using namespace md;

namespace {

constexpr int kWaitMs = 30000;
// Spies are polled (QTRY), never wait()ed on: a task done before its continuation is
// attached is answered at once, inside the call (Qt 6.4), before wait() would start.

const char kOrderV1[] =
    R"({"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"string"}]})";
const char kOrderV2[] =
    R"({"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"string"},)"
    R"({"name":"note","type":["null","string"],"default":null}]})";
const char kCommonProto[] =
    "syntax = \"proto3\";\npackage acme;\nmessage Money { int64 cents = 1; string currency = 2; }\n";
const char kPaymentProto[] = "syntax = \"proto3\";\npackage acme;\nimport \"common.proto\";\n"
                             "message Payment { string id = 1; acme.Money amount = 2; }\n";
const char kEventKey[] = R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",)"
                         R"("properties":{"id":{"type":"string"}}})";

// PUT /config/{subject}: the client has no call for it (MirrorDesk only reads levels).
bool setCompatibility(const QString &registry, const QString &subject, const QString &level, QString *error)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(registry + QStringLiteral("/config/") + subject));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/vnd.schemaregistry.v1+json"));
    QNetworkReply *reply = nam.put(request, "{\"compatibility\":\"" + level.toUtf8() + "\"}");
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(kWaitMs, &loop, &QEventLoop::quit);
    loop.exec();
    const bool ok = reply->isFinished() && reply->error() == QNetworkReply::NoError;
    if (!ok)
        *error = reply->errorString() + QLatin1Char(' ') + QString::fromUtf8(reply->readAll());
    reply->deleteLater();
    return ok;
}

QString cell(const SchemasPanel *panel, const QString &subject, int column, int role = Qt::DisplayRole)
{
    const SchemaSubjectModel *m = panel->model();
    return m->index(m->rowOf(subject), column).data(role).toString();
}

bool loaded(const SchemasPanel *panel, const QStringList &subjects)
{
    for (const QString &s : subjects) {
        const SchemaSubjectModel::Row *row = panel->model()->rowAt(panel->model()->rowOf(s));
        if (!row || !row->loaded)
            return false;
    }
    return true;
}

// A port nothing listens on.
quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

} // namespace

class TestSchemasPanel final : public QObject {
    Q_OBJECT

    QString m_url;
    QString m_tag;
    QString m_orders, m_common, m_payments, m_eventsKey, m_record;
    QString m_ordersTopic;

    void registerOrFail(SchemaRegistryClient &client, const QString &subject, const char *type, const char *text,
                        const QList<SchemaReference> &refs = {})
    {
        RegistryError error;
        const std::optional<int> id =
            client.registerSchema(subject, QString::fromLatin1(type), QByteArray(text), refs, &error);
        QVERIFY2(id, qPrintable(error.message));
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        MD_REQUIRE_REGISTRY();
        m_url = test::registryUrl();
        m_tag = test::uniqueName(QStringLiteral("schemas"));
        m_ordersTopic = m_tag + QStringLiteral("-orders");
        m_orders = m_ordersTopic + QStringLiteral("-value");
        m_common = m_tag + QStringLiteral("-common");
        m_payments = m_tag + QStringLiteral("-payments-value");
        m_eventsKey = m_tag + QStringLiteral("-events-key");
        m_record = QStringLiteral("com.") + m_tag + QStringLiteral(".Order");
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_ordersTopic, 1, {}, &error), qPrintable(error));

        SchemaRegistryConfig registry;
        registry.url = m_url;
        SchemaRegistryClient client(registry);
        registerOrFail(client, m_orders, "AVRO", kOrderV1);
        registerOrFail(client, m_common, "PROTOBUF", kCommonProto);
        registerOrFail(client, m_payments, "PROTOBUF", kPaymentProto, {{QStringLiteral("common.proto"), m_common, 1}});
        registerOrFail(client, m_eventsKey, "JSON", kEventKey);
        registerOrFail(client, m_record, "AVRO", kOrderV1);
        QVERIFY2(setCompatibility(m_url, m_orders, QStringLiteral("FORWARD_TRANSITIVE"), &error), qPrintable(error));
    }

    void cleanupTestCase()
    {
        if (!m_ordersTopic.isEmpty())
            test::deleteTopic(test::sourceBootstrap(), m_ordersTopic);
    }

    void noRegistrySaysHowToAddOne()
    {
        ClusterPane pane(QStringLiteral("Source"));
        pane.resize(683, 700);
        pane.show();
        ClusterConfig config;
        config.bootstrap = QStringLiteral("127.0.0.1:1");
        pane.connectTo(config);
        SchemasPanel *panel = pane.schemasPanel();
        QCOMPARE(pane.tabs()->tabText(pane.tabs()->indexOf(panel)), QStringLiteral("Schemas"));
        pane.tabs()->setCurrentWidget(panel);
        QVERIFY(!panel->hasRegistry());
        QVERIFY2(panel->placeholderText().contains(QLatin1String("No schema registry is configured")),
                 qPrintable(panel->placeholderText()));
        QVERIFY(panel->placeholderText().contains(QLatin1String("Connections")));
        QVERIFY(!panel->view()->isVisible());
        QCOMPARE(panel->model()->rowCount(), 0);
    }

    void browsesTheRegistry()
    {
        ClusterPane pane(QStringLiteral("Source"));
        pane.resize(1366, 720);
        pane.show();
        ClusterConfig config = test::clusterConfig(QStringLiteral("source"));
        config.schemaRegistry.url = m_url;
        pane.connectTo(config);
        SchemasPanel *panel = pane.schemasPanel();
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QVERIFY(panel->hasRegistry());
        QVERIFY(panel->placeholderText().isEmpty());
        // Hidden, it asks nothing.
        QTest::qWait(200);
        QCOMPARE(panel->model()->rowCount(), 0);
        QSignalSpy listed(panel, &SchemasPanel::subjectsListed);
        pane.tabs()->setCurrentWidget(panel);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), kWaitMs);
        const QStringList ours{m_orders, m_common, m_payments, m_eventsKey, m_record};
        QTRY_VERIFY_WITH_TIMEOUT(loaded(panel, ours), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(panel->pendingDetails() == 0, kWaitMs);
        QVERIFY2(panel->statusText().contains(redactedRegistryUrl(m_url)), qPrintable(panel->statusText()));

        // The filter narrows the list to this test's subjects (others share the registry).
        panel->filterEdit()->setText(m_tag);
        QCOMPARE(panel->view()->model()->rowCount(), 5);
        panel->filterEdit()->clear();

        QCOMPARE(cell(panel, m_orders, SchemaSubjectModel::Type), QStringLiteral("AVRO"));
        QCOMPARE(cell(panel, m_payments, SchemaSubjectModel::Type), QStringLiteral("PROTOBUF"));
        QCOMPARE(cell(panel, m_eventsKey, SchemaSubjectModel::Type), QStringLiteral("JSON"));
        QCOMPARE(cell(panel, m_orders, SchemaSubjectModel::Latest), QStringLiteral("1"));
        QCOMPARE(cell(panel, m_orders, SchemaSubjectModel::Versions), QStringLiteral("1"));
        QCOMPARE(cell(panel, m_orders, SchemaSubjectModel::Compatibility), QStringLiteral("FORWARD_TRANSITIVE"));
        SchemaRegistryClient client(config.schemaRegistry);
        RegistryError error;
        const QString global = client.compatibility(QString(), &error).value_or(QString());
        QVERIFY2(error.ok(), qPrintable(error.message));
        QCOMPARE(cell(panel, m_common, SchemaSubjectModel::Compatibility), global);
        QVERIFY(panel->statusText().contains(QStringLiteral("global compatibility ") + global));
        // The topics by TopicNameStrategy, checked against the broker's.
        QTRY_COMPARE_WITH_TIMEOUT(cell(panel, m_orders, SchemaSubjectModel::Topic),
                                  m_ordersTopic + QStringLiteral(" (value)"), kWaitMs);
        QCOMPARE(cell(panel, m_payments, SchemaSubjectModel::Topic),
                 m_tag + QStringLiteral("-payments (value) - no such topic"));
        QCOMPARE(cell(panel, m_eventsKey, SchemaSubjectModel::Topic),
                 m_tag + QStringLiteral("-events (key) - no such topic"));
        QCOMPARE(cell(panel, m_record, SchemaSubjectModel::Topic), QString());
        QCOMPARE(cell(panel, m_common, SchemaSubjectModel::Topic), QString());

        // v2, then the pane's refresh: the row follows.
        RegistryError registered;
        QVERIFY2(client.registerSchema(m_orders, QStringLiteral("AVRO"), kOrderV2, {}, &registered),
                 qPrintable(registered.message));
        QSignalSpy relisted(panel, &SchemasPanel::subjectsListed);
        pane.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!relisted.isEmpty(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(panel, m_orders, SchemaSubjectModel::Latest), QStringLiteral("2"), kWaitMs);
        QCOMPARE(cell(panel, m_orders, SchemaSubjectModel::Versions), QStringLiteral("2"));

        // Details: selecting a row shows its latest version, pretty.
        SchemaDetails *details = panel->details();
        QSignalSpy shown(panel, &SchemasPanel::subjectShown);
        panel->openSubject(m_orders);
        QTRY_COMPARE_WITH_TIMEOUT(details->version(), 2, kWaitMs);
        QCOMPARE(details->subject(), m_orders);
        QCOMPARE(panel->view()->selectionModel()->selectedRows().value(0).data().toString(), m_orders);
        QCOMPARE(details->versionBox()->count(), 2);
        QCOMPARE(details->versionBox()->currentText(), QStringLiteral("2 (latest)"));
        QCOMPARE(details->typeLabel()->text(), QStringLiteral("AVRO"));
        QCOMPARE(details->compatibilityLabel()->text(), QStringLiteral("FORWARD_TRANSITIVE"));
        QCOMPARE(details->topicLabel()->text(), m_ordersTopic + QStringLiteral(" (value)"));
        QVERIFY(details->idLabel()->text().toInt() > 0);
        const QString text = details->textView()->toPlainText();
        QVERIFY2(text.startsWith(QLatin1String("{\n  \"type\": \"record\",\n  \"name\": \"Order\",\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("\"name\": \"note\"")), qPrintable(text));
        QVERIFY(details->textView()->isReadOnly());
        QCOMPARE(details->textView()->font().family(), QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
        QCOMPARE(details->referenceList()->count(), 0);

        // Version 1 from the picker.
        details->versionBox()->setCurrentIndex(details->versionBox()->findData(1));
        Q_EMIT details->versionBox()->activated(details->versionBox()->currentIndex());
        QTRY_COMPARE_WITH_TIMEOUT(details->version(), 1, kWaitMs);
        QVERIFY(!details->textView()->toPlainText().contains(QLatin1String("note")));

        // A reference opens its subject at its version; Protobuf text as registered.
        panel->openSubject(m_payments);
        QTRY_COMPARE_WITH_TIMEOUT(details->subject(), m_payments, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(details->referenceList()->count(), 1, kWaitMs);
        QCOMPARE(details->textView()->toPlainText(), QString::fromUtf8(kPaymentProto));
        QListWidgetItem *ref = details->referenceList()->item(0);
        QCOMPARE(ref->text(), QStringLiteral("common.proto \u2192 %1 v1").arg(m_common));
        QTest::mouseClick(details->referenceList()->viewport(), Qt::LeftButton, {},
                          details->referenceList()->visualItemRect(ref).center());
        QTRY_COMPARE_WITH_TIMEOUT(details->subject(), m_common, kWaitMs);
        QCOMPARE(details->version(), 1);
        QCOMPARE(panel->view()->selectionModel()->selectedRows().value(0).data().toString(), m_common);
        QVERIFY(details->textView()->toPlainText().contains(QLatin1String("message Money")));
        QCOMPARE(details->topicLabel()->text(), QStringLiteral("none by name (not <topic>-key or <topic>-value)"));

        // JSON schema: indented.
        panel->openSubject(m_eventsKey);
        QTRY_COMPARE_WITH_TIMEOUT(details->subject(), m_eventsKey, kWaitMs);
        QVERIFY2(details->textView()->toPlainText().contains(QLatin1String("\n  \"properties\": {\n    \"id\": {")),
                 qPrintable(details->textView()->toPlainText()));
    }

    void registryDownIsSaidInline()
    {
        ClusterPane pane(QStringLiteral("Source"));
        pane.resize(683, 700);
        pane.show();
        ClusterConfig config;
        config.bootstrap = QStringLiteral("127.0.0.1:1");
        const QString url = QStringLiteral("http://user:pw-secret@127.0.0.1:%1/apis/ccompat/v7").arg(closedPort());
        config.schemaRegistry.url = url;
        pane.connectTo(config);
        SchemasPanel *panel = pane.schemasPanel();
        QSignalSpy failed(panel, &SchemasPanel::listFailed);
        pane.tabs()->setCurrentWidget(panel);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), kWaitMs);
        const QString status = panel->statusText();
        QVERIFY2(status.contains(QLatin1String("unreachable")), qPrintable(status));
        QVERIFY2(status.contains(redactedRegistryUrl(url)), qPrintable(status));
        QVERIFY2(!status.contains(QLatin1String("pw-secret")), qPrintable(status));
        QCOMPARE(panel->findChild<QLabel *>(QStringLiteral("schemaStatus"))->isVisible(), true);
        QCOMPARE(panel->model()->rowCount(), 0);
        // Asking again asks again, and says so again.
        failed.clear();
        panel->refreshButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), kWaitMs);
    }

    void silentRegistryLeavesTheWindowResponsive()
    {
        // Accepts connections (the kernel does) and never answers.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        silent.pauseAccepting();
        auto pane = std::make_unique<ClusterPane>(QStringLiteral("Source"));
        pane->resize(683, 700);
        pane->show();
        ClusterConfig config;
        config.bootstrap = QStringLiteral("127.0.0.1:1");
        config.schemaRegistry.url = QStringLiteral("http://127.0.0.1:%1").arg(silent.serverPort());
        pane->connectTo(config);
        SchemasPanel *panel = pane->schemasPanel();
        pane->tabs()->setCurrentWidget(panel);
        QVERIFY(panel->isListing());
        QVERIFY2(panel->statusText().startsWith(QLatin1String("Listing the subjects")),
                 qPrintable(panel->statusText()));
        // The event loop keeps turning while the registry is silent.
        QElapsedTimer gap;
        gap.start();
        qint64 worst = 0;
        QTimer ticker;
        QObject::connect(&ticker, &QTimer::timeout, [&] { worst = std::max(worst, gap.restart()); });
        ticker.start(10);
        QTest::qWait(1500);
        ticker.stop();
        QVERIFY2(worst < 250, qPrintable(QStringLiteral("the UI thread stalled %1 ms").arg(worst)));
        QVERIFY(panel->isListing());
        // Closing the pane while the request runs returns at once.
        QElapsedTimer closing;
        closing.start();
        pane.reset();
        QVERIFY(closing.elapsed() < 500);
        silent.close(); // the pending connection is reset: the task ends
    }
};

QTEST_MAIN(TestSchemasPanel)
#include "tst_schemaspanel.moc"
