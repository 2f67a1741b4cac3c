// The messages tab's "Decoded" mode, offscreen and without brokers: it is the
// default for a cluster with a schema registry (and left for Text when the
// registry goes), the table shows decoded JSON and a failed part's reason in
// its tooltip, and the record viewer names the schema (id, type, subject,
// version) beside the decoded value, the raw bytes in hex beside it.

#include "engine/admin/AdminClient.h"
#include "ui/cluster/MessagesPanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace md;

namespace {

ClusterConfig cluster(const QString &registryUrl)
{
    ClusterConfig c;
    c.bootstrap = QStringLiteral("127.0.0.1:1");
    c.schemaRegistry.url = registryUrl;
    return c;
}

QList<KafkaMessage> messages()
{
    KafkaMessage decoded;
    decoded.topic = QStringLiteral("orders");
    decoded.partition = 0;
    decoded.offset = 4;
    decoded.key = QByteArray("k");
    decoded.value = QByteArray("\x00\x00\x00\x00\x11\x06p-1", 9);
    decoded.valueDecoded.status = DecodedPart::Status::Decoded;
    decoded.valueDecoded.json = "{\"id\":\"p-1\"}";
    decoded.valueDecoded.schemaId = 17;
    decoded.valueDecoded.type = QStringLiteral("AVRO");
    decoded.valueDecoded.subject = QStringLiteral("orders-value");
    decoded.valueDecoded.version = 3;
    KafkaMessage failed = decoded;
    failed.offset = 5;
    failed.value = QByteArray("\x00\x00\x00\x00\x63zz", 7);
    failed.valueDecoded = {};
    failed.valueDecoded.status = DecodedPart::Status::Failed;
    failed.valueDecoded.schemaId = 99;
    failed.valueDecoded.error = QStringLiteral("schema 99 is not in the registry");
    return {decoded, failed};
}

} // namespace

class TstMessagesDecoded final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decodedIsTheDefaultWithARegistry()
    {
        AdminClient admin;
        MessagesPanel panel(&admin);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        panel.resize(1000, 700);
        panel.show();
        auto shown = [&] { return MessageTableModel::DisplayMode(panel.displayBox()->currentData().toInt()); };
        QCOMPARE(shown(), MessageTableModel::DisplayMode::Text);
        panel.setClusters(cluster(QStringLiteral("http://127.0.0.1:1")), {});
        QCOMPARE(shown(), MessageTableModel::DisplayMode::Decoded);
        QCOMPARE(panel.model()->displayMode(), MessageTableModel::DisplayMode::Decoded);
        // The user's choice stands while the registry does.
        panel.setDisplayMode(MessageTableModel::DisplayMode::Hex);
        panel.setClusters(cluster(QStringLiteral("http://127.0.0.1:2")), {});
        QCOMPARE(shown(), MessageTableModel::DisplayMode::Hex);
        panel.setDisplayMode(MessageTableModel::DisplayMode::Decoded);
        panel.setClusters(cluster(QString()), {});
        QCOMPARE(shown(), MessageTableModel::DisplayMode::Text);
    }

    void tableAndViewer()
    {
        AdminClient admin;
        MessagesPanel panel(&admin);
        panel.resize(1000, 700);
        panel.show();
        panel.setClusters(cluster(QStringLiteral("http://127.0.0.1:1")), {});
        panel.model()->setMessages(messages());
        const QAbstractItemModel *view = panel.view()->model();
        auto cell = [&](int row, int role) { return view->index(row, MessageTableModel::Value).data(role).toString(); };
        QCOMPARE(cell(0, Qt::DisplayRole), QStringLiteral("{\"id\":\"p-1\"}"));
        QVERIFY(cell(1, Qt::ToolTipRole).startsWith(QStringLiteral("Not decoded: schema 99 is not in the registry")));

        panel.view()->selectRow(0);
        const QString detail = panel.detailView()->toPlainText();
        QVERIFY2(detail.contains(QLatin1String("value: {\"id\":\"p-1\"}\n")), qPrintable(detail));
        QVERIFY2(detail.contains(QLatin1String("value schema: schema 17 (AVRO, orders-value v3)")), qPrintable(detail));
        QVERIFY2(panel.detailHexView()->toPlainText().contains(QLatin1String("value: 00 00 00 00 11 06 70 2d 31")),
                 qPrintable(panel.detailHexView()->toPlainText()));
        panel.view()->selectRow(1);
        QVERIFY2(panel.detailView()->toPlainText().contains(
                     QLatin1String("value schema: schema 99; not decoded: schema 99 is not in the registry")),
                 qPrintable(panel.detailView()->toPlainText()));

        // JSON mode: the viewer goes back to the bytes (the schema still named).
        panel.setDisplayMode(MessageTableModel::DisplayMode::Json);
        panel.view()->selectRow(0);
        QVERIFY(!panel.detailView()->toPlainText().contains(QLatin1String("value: {\"id\"")));
        QVERIFY(panel.detailView()->toPlainText().contains(QLatin1String("value schema: schema 17")));
    }
};

QTEST_MAIN(TstMessagesDecoded)
#include "tst_messagesdecoded.moc"
