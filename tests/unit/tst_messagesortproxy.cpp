// MessageSortProxy sorts the message table in the order QSortFilterProxyModel
// gives by MessageTableModel::SortRole (ties included: both sorts are stable),
// for every column and both orders, and passes QAbstractItemModelTester.

#include "model/tables/MessageSortProxy.h"
#include "model/tables/MessageTableModel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSortFilterProxyModel>
#include <QtTest/QtTest>

using namespace md;

namespace {

QList<KafkaMessage> messages(int count)
{
    QRandomGenerator random(19);
    QList<KafkaMessage> out;
    for (int i = 0; i < count; ++i) {
        KafkaMessage m;
        m.topic = QStringLiteral("t");
        m.partition = int(random.bounded(4));               // many ties
        m.offset = random.bounded(50);                      // ties across partitions
        m.timestampMs = 1733212800000 + random.bounded(20); // ties
        if (i % 7 != 0)
            m.key = QByteArray::number(random.bounded(30));
        m.value = QByteArray("v") + QByteArray::number(i);
        out.append(m);
    }
    return out;
}

QList<int> order(const QSortFilterProxyModel &proxy)
{
    QList<int> rows;
    for (int r = 0; r < proxy.rowCount(); ++r)
        rows.append(proxy.mapToSource(proxy.index(r, 0)).row());
    return rows;
}

} // namespace

class TstMessageSortProxy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameOrderAsTheDefaultSort_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<Qt::SortOrder>("sortOrder");
        for (int c = 0; c < MessageTableModel::ColumnCount; ++c) {
            QTest::addRow("column %d ascending", c) << c << Qt::AscendingOrder;
            QTest::addRow("column %d descending", c) << c << Qt::DescendingOrder;
        }
    }

    void sameOrderAsTheDefaultSort()
    {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, sortOrder);
        MessageTableModel model;
        model.setMessages(messages(500));
        MessageSortProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        QSortFilterProxyModel reference;
        reference.setSortRole(MessageTableModel::SortRole);
        reference.setSourceModel(&model);
        proxy.sort(column, sortOrder);
        reference.sort(column, sortOrder);
        QCOMPARE(order(proxy), order(reference));
        // A new answer (a model reset) is sorted the same way again.
        model.setMessages(messages(300));
        QCOMPARE(order(proxy), order(reference));
    }
};

QTEST_GUILESS_MAIN(TstMessageSortProxy)
#include "tst_messagesortproxy.moc"
