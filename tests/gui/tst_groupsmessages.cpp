// The consumer-groups and messages tabs, offscreen, against the real brokers
// (MD_REQUIRE_BROKERS): a real group's lag per partition with "none" for a
// partition it never committed; reset offsets refused (disabled, with the
// reason, and refused by the broker) while the group has a member, allowed
// once it is Empty, the new offsets checked on the broker; delete group; the
// messages tab reads latest N / from an offset / from a time and shows text,
// JSON and hex; clipboard JSON; JSON and CSV exports parse back; and copying
// selected messages and an offset range to the other cluster.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/AdminClient.h"
#include "engine/admin/AdminService.h"
#include "engine/core/KafkaHandles.h"
#include "model/tables/ConsumerGroupModel.h"
#include "model/tables/GroupOffsetsModel.h"
#include "ui/cluster/GroupsPanel.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/dialogs/CopyMessagesDialog.h"

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

namespace {

test::TestRecord rec(std::optional<QByteArray> key, std::optional<QByteArray> value, int partition, qint64 ts,
                     QList<QPair<QString, std::optional<QByteArray>>> headers = {})
{
    test::TestRecord r;
    r.key = std::move(key);
    r.value = std::move(value);
    r.partition = partition;
    r.timestamp = ts;
    r.headers = std::move(headers);
    return r;
}

int offsetsRow(const GroupOffsetsModel *m, int partition)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, GroupOffsetsModel::Partition).data().toInt() == partition)
            return r;
    }
    return -1;
}

// Waits for the panel's outstanding requests to be answered.
bool settle(GroupsPanel &panel, int timeoutMs = 20000)
{
    QElapsedTimer t;
    t.start();
    while (panel.isBusy() && t.elapsed() < timeoutMs)
        QTest::qWait(20);
    return !panel.isBusy();
}

// Refreshes until `check` holds (broker state takes a moment to show).
bool refreshUntil(GroupsPanel &panel, const std::function<bool()> &check, int timeoutMs = 30000)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        panel.refresh();
        if (!settle(panel))
            return false;
        if (check())
            return true;
        QTest::qWait(250);
    }
    return false;
}

const ConsumerGroupInfo *findGroup(const ConsumerGroupModel *m, const QString &id)
{
    for (const ConsumerGroupInfo &g : m->groups()) {
        if (g.groupId == id)
            return &g;
    }
    return nullptr;
}

qint64 brokerCommitted(AdminService &admin, const QString &group, int partition)
{
    const auto r = admin.groupOffsets(group);
    for (const GroupPartitionOffset &o : r.value) {
        if (o.partition == partition)
            return o.committed;
    }
    return -2;
}

QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
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
        } else if (c == QLatin1Char('\r')) {
        } else if (c == QLatin1Char('\n')) {
            row << field;
            field.clear();
            rows << row;
            row.clear();
        } else {
            field += c;
        }
    }
    return rows;
}

} // namespace

class TstGroupsMessages final : public QObject {
    Q_OBJECT
    std::unique_ptr<AdminClient> m_admin;

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS();
        m_admin = std::make_unique<AdminClient>();
        QSignalSpy connected(m_admin.get(), &AdminClient::connected);
        m_admin->connectTo(test::clusterConfig(QStringLiteral("source")));
        QVERIFY(connected.wait(20000));
    }

    void cleanupTestCase() { m_admin.reset(); }

    void groupLagResetAndDelete()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gui-groups"));
        const QString group = test::uniqueName(QStringLiteral("gui-g"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 3, {}, &error), qPrintable(error));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600000;
        QList<test::TestRecord> records;
        for (int i = 0; i < 10; ++i)
            records << rec(QByteArray("k"), QByteArray::number(i), 0, base + i * 1000);
        for (int i = 0; i < 5; ++i)
            records << rec(QByteArray("k"), QByteArray::number(i), 1, base + i * 1000);
        for (int i = 0; i < 3; ++i)
            records << rec(QByteArray("k"), QByteArray::number(i), 2, base + i * 1000);
        QVERIFY2(test::produce(bootstrap, topic, records, &error), qPrintable(error));
        auto broker = AdminService::create(test::clusterConfig(QStringLiteral("source")), &error);
        QVERIFY2(broker, qPrintable(error));

        GroupsPanel panel(m_admin.get());
        QAbstractItemModelTester groupsTester(panel.groupModel(),
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester offsetsTester(panel.offsetsModel(),
                                               QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.groupView()->model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(900, 700);
        panel.show();
        QSignalSpy watch(&panel, &GroupsPanel::watchGroupRequested);
        QSignalSpy finished(&panel, &GroupsPanel::actionFinished);

        test::GroupMember consumer;
        QVERIFY2(consumer.start(bootstrap, group, topic, &error, QStringLiteral("gui-lag-client")), qPrintable(error));
        QVERIFY2(consumer.commit({{0, 4}, {1, 5}}, &error), qPrintable(error));

        // Listed, Stable, with its member.
        QVERIFY(refreshUntil(panel, [&] {
            const ConsumerGroupInfo *g = findGroup(panel.groupModel(), group);
            return g && g->state == GroupState::Stable && g->members.size() == 1;
        }));
        panel.findChild<QLineEdit *>()->setText(group); // the filter box
        QCOMPARE(panel.groupView()->model()->rowCount(), 1);
        QVERIFY(panel.selectGroup(group));
        QVERIFY(settle(panel));
        QCOMPARE(panel.selectedGroupId(), group);
        QCOMPARE(panel.groupView()->model()->index(0, ConsumerGroupModel::State).data().toString(),
                 QStringLiteral("Stable"));
        QCOMPARE(panel.groupView()->model()->index(0, ConsumerGroupModel::Members).data().toInt(), 1);
        QCOMPARE(panel.groupView()->model()->index(0, ConsumerGroupModel::Simple).data().toString(),
                 QStringLiteral("no"));
        QCOMPARE(panel.membersView()->rowCount(), 1);
        QCOMPARE(panel.membersView()->item(0, 0)->text(), QStringLiteral("gui-lag-client"));
        QVERIFY(!panel.membersView()->item(0, 1)->text().isEmpty());
        QVERIFY2(panel.membersView()->item(0, 2)->text().contains(topic + QStringLiteral("[0]")),
                 qPrintable(panel.membersView()->item(0, 2)->text()));

        // Lag per partition; the never-committed partition is "none", not 0 or negative.
        const GroupOffsetsModel *om = panel.offsetsModel();
        QCOMPARE(om->rowCount(), 3);
        const int r0 = offsetsRow(om, 0), r1 = offsetsRow(om, 1), r2 = offsetsRow(om, 2);
        QCOMPARE(om->index(r0, GroupOffsetsModel::Committed).data().toLongLong(), 4);
        QCOMPARE(om->index(r0, GroupOffsetsModel::EndOffset).data().toLongLong(), 10);
        QCOMPARE(om->index(r0, GroupOffsetsModel::Lag).data().toLongLong(), 6);
        QCOMPARE(om->index(r1, GroupOffsetsModel::Lag).data().toLongLong(), 0);
        QCOMPARE(om->index(r2, GroupOffsetsModel::Committed).data().toString(), QStringLiteral("none"));
        QCOMPARE(om->index(r2, GroupOffsetsModel::Lag).data().toString(), QStringLiteral("none"));
        QCOMPARE(om->index(r2, GroupOffsetsModel::EndOffset).data().toLongLong(), 3);
        QVERIFY2(panel.totalLagText().contains(QLatin1String("Total lag: 6")) &&
                     panel.totalLagText().contains(QLatin1String("1 partition without a committed offset")),
                 qPrintable(panel.totalLagText()));

        // While the member is there: reset disabled, with the reason; the broker refuses too.
        QVERIFY(!panel.resetButton()->isEnabled());
        QVERIFY2(panel.resetHint().contains(QLatin1String("1 active member")) &&
                     panel.resetHint().contains(QLatin1String("Stable")),
                 qPrintable(panel.resetHint()));
        panel.resetOffsets(OffsetReset{});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY2(panel.statusText().contains(QLatin1String("member")), qPrintable(panel.statusText()));
        QCOMPARE(brokerCommitted(*broker, group, 0), 4);

        // Watch lag: only the signal.
        QTest::mouseClick(panel.watchButton(), Qt::LeftButton);
        QCOMPARE(watch.size(), 1);
        QCOMPARE(watch.first().first().toString(), group);

        // Member gone: Empty, reset allowed.
        consumer.close();
        QVERIFY(refreshUntil(panel, [&] {
            const ConsumerGroupInfo *g = findGroup(panel.groupModel(), group);
            return g && g->state == GroupState::Empty;
        }));
        QCOMPARE(panel.selectedGroupId(), group); // selection kept across refreshes
        QVERIFY(panel.resetButton()->isEnabled());
        QVERIFY(panel.resetHint().isEmpty());
        QCOMPARE(panel.membersView()->rowCount(), 0);

        // The dialog builds explicit resets and rejects a bad number.
        {
            ResetOffsetsDialog dialog(group, om->offsets());
            dialog.modeBox()->setCurrentIndex(dialog.modeBox()->findData(int(OffsetReset::Mode::Explicit)));
            QTableWidget *t = dialog.offsetTable();
            for (int row = 0; row < t->rowCount(); ++row) {
                if (t->item(row, 1)->text() == QLatin1String("0"))
                    t->item(row, 3)->setText(QStringLiteral("2"));
                else if (t->item(row, 1)->text() == QLatin1String("2"))
                    t->item(row, 3)->setText(QStringLiteral("abc"));
            }
            QString why;
            dialog.reset(&why);
            QVERIFY2(why.contains(QLatin1String("abc")) && why.contains(topic + QStringLiteral("[2]")),
                     qPrintable(why));
            for (int row = 0; row < t->rowCount(); ++row) {
                if (t->item(row, 1)->text() == QLatin1String("2"))
                    t->item(row, 3)->setText(QString());
            }
            why.clear();
            const OffsetReset reset = dialog.reset(&why);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            QCOMPARE(reset.mode, OffsetReset::Mode::Explicit);
            QCOMPARE(reset.explicitOffsets.size(), 2); // p0 -> 2, p1 kept at its committed 5
            QCOMPARE(reset.explicitOffsets.value({topic, 0}), 2);
            QCOMPARE(reset.explicitOffsets.value({topic, 1}), 5);

            finished.clear();
            panel.resetOffsets(reset);
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
            QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
            QVERIFY(settle(panel));
            QCOMPARE(brokerCommitted(*broker, group, 0), 2);
            QCOMPARE(om->index(offsetsRow(om, 0), GroupOffsetsModel::Committed).data().toLongLong(), 2);
            QCOMPARE(om->index(offsetsRow(om, 0), GroupOffsetsModel::Lag).data().toLongLong(), 8);
        }

        // Earliest: every partition the group knows, the never-committed one included.
        finished.clear();
        panel.resetOffsets(OffsetReset{});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QVERIFY(settle(panel));
        for (int p = 0; p < 3; ++p)
            QCOMPARE(brokerCommitted(*broker, group, p), 0);
        QVERIFY2(panel.totalLagText().startsWith(QLatin1String("Total lag: 18")), qPrintable(panel.totalLagText()));

        // Delete.
        finished.clear();
        panel.deleteGroup(group);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QVERIFY(refreshUntil(panel, [&] { return !findGroup(panel.groupModel(), group); }));
        QCOMPARE(panel.groupView()->model()->rowCount(), 0);
        QVERIFY(!panel.resetButton()->isEnabled());
        const auto groups = broker->consumerGroups();
        QVERIFY(groups.ok());
        for (const ConsumerGroupInfo &g : groups.value)
            QVERIFY(g.groupId != group);
        test::deleteTopic(bootstrap, topic);
    }

    void messagesReadShowExportAndCopy()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gui-messages"));
        const QString copyTopic = test::uniqueName(QStringLiteral("gui-copy"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::targetBootstrap(), copyTopic, 2, {}, &error), qPrintable(error));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 600000;
        QList<test::TestRecord> records;
        for (int i = 0; i < 10; ++i)
            records << rec(QByteArray("k") + QByteArray::number(i),
                           QByteArray(R"({"n":)") + QByteArray::number(i) + "}", 0, base + i * 1000,
                           {{QStringLiteral("h"), QByteArray("v") + QByteArray::number(i)}});
        records << rec(std::nullopt, QByteArray("\x00\xff", 2), 1, base + 20000);
        records << rec(QByteArray(""), std::nullopt, 1, base + 21000);
        QVERIFY2(test::produce(bootstrap, topic, records, &error), qPrintable(error));

        MessagesPanel panel(m_admin.get());
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(1000, 700);
        panel.show();
        auto broker = AdminService::create(test::clusterConfig(QStringLiteral("source")), &error);
        QVERIFY2(broker, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(broker->metadata().value.topic(topic), 20000);
        panel.setMetadata(broker->metadata().value);
        QSignalSpy shown(&panel, &MessagesPanel::messagesShown);
        QSignalSpy failed(&panel, &MessagesPanel::readFailed);
        auto readWith = [&]() -> bool {
            // A fresh topic may not answer ListOffsets for a moment (KRaft): retry a read that failed.
            for (int attempt = 0; attempt < 20; ++attempt) {
                shown.clear();
                failed.clear();
                QTest::mouseClick(panel.readButton(), Qt::LeftButton);
                if (!panel.isReading() && !failed.isEmpty())
                    return false; // refused before asking
                QElapsedTimer wait;
                wait.start();
                while (shown.isEmpty() && failed.isEmpty() && wait.elapsed() < 30000)
                    QTest::qWait(20);
                if (!shown.isEmpty())
                    return true;
                QTest::qWait(300);
            }
            return false;
        };

        // Latest N over the whole topic: the newest three by time.
        panel.topicBox()->setCurrentText(topic);
        QCOMPARE(panel.partitionBox()->count(), 3); // all + 2 partitions
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::LatestN)));
        panel.countBox()->setValue(3);
        QVERIFY2(readWith(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.model()->messageAt(2)->partition, 1);
        QVERIFY(!panel.model()->messageAt(2)->value.has_value()); // the tombstone, newest
        QCOMPARE(panel.model()->messageAt(0)->offset, 9);         // partition 0's last

        // From an offset, one partition.
        panel.partitionBox()->setCurrentIndex(panel.partitionBox()->findData(0));
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        panel.offsetEdit()->setText(QStringLiteral("7"));
        panel.countBox()->setValue(100);
        QVERIFY(readWith());
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.model()->messageAt(0)->offset, 7);
        QCOMPARE(panel.model()->messageAt(2)->offset, 9);

        // A bad offset is refused with the reason, nothing asked.
        panel.offsetEdit()->setText(QStringLiteral("seven"));
        failed.clear();
        panel.read();
        QCOMPARE(failed.size(), 1);
        QVERIFY(panel.statusText().contains(QLatin1String("seven")));

        // From a time.
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::FromTimestamp)));
        panel.timeEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(base + 5000, Qt::UTC));
        QVERIFY(readWith());
        QCOMPARE(panel.model()->rowCount(), 5);
        QCOMPARE(panel.model()->messageAt(0)->offset, 5);
        QCOMPARE(panel.model()->messageAt(0)->timestampMs, base + 5000);

        // Text, JSON, hex of the first shown value {"n":5}.
        QTableView *view = panel.view();
        auto valueText = [&] { return view->model()->index(0, MessageTableModel::Value).data().toString(); };
        view->sortByColumn(MessageTableModel::Offset, Qt::AscendingOrder);
        QCOMPARE(valueText(), QStringLiteral(R"({"n":5})"));
        panel.setDisplayMode(MessageTableModel::DisplayMode::Json);
        QVERIFY2(valueText().contains(QLatin1String("\n")) && valueText().contains(QLatin1String("\"n\": 5")),
                 qPrintable(valueText()));
        panel.setDisplayMode(MessageTableModel::DisplayMode::Hex);
        QCOMPARE(valueText(), QStringLiteral("7b 22 6e 22 3a 35 7d"));
        QCOMPARE(view->model()->index(0, MessageTableModel::Key).data().toString(), QStringLiteral("6b 35"));
        panel.setDisplayMode(MessageTableModel::DisplayMode::Text);
        QCOMPARE(view->model()->index(0, MessageTableModel::Headers).data().toString(), QStringLiteral("h=v5"));

        // Copy one message as JSON to the clipboard.
        view->selectRow(0);
        QVERIFY(panel.detailView()->toPlainText().contains(QLatin1String("offset: 5")));
        panel.copySelected(true);
        const QJsonObject copied = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied.value(QStringLiteral("offset")).toInteger(), 5);
        QCOMPARE(copied.value(QStringLiteral("key")).toString(), QStringLiteral("k5"));
        QCOMPARE(copied.value(QStringLiteral("value")).toString(), QStringLiteral(R"({"n":5})"));
        view->clearSelection();

        // Export what is shown; the files parse back.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString jsonPath = dir.filePath(QStringLiteral("shown.json"));
        const QString csvPath = dir.filePath(QStringLiteral("shown.csv"));
        QVERIFY2(panel.exportMessages(jsonPath, false, &error), qPrintable(error));
        QVERIFY2(panel.exportMessages(csvPath, true, &error), qPrintable(error));
        QFile jsonFile(jsonPath);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonArray array = QJsonDocument::fromJson(jsonFile.readAll(), &parseError).array();
        QCOMPARE(parseError.error, QJsonParseError::NoError);
        QCOMPARE(array.size(), 5);
        QCOMPARE(array.at(0).toObject().value(QStringLiteral("offset")).toInteger(), 5);
        QCOMPARE(array.at(4).toObject().value(QStringLiteral("value")).toString(), QStringLiteral(R"({"n":9})"));
        QCOMPARE(array.at(4)
                     .toObject()
                     .value(QStringLiteral("headers"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("value"))
                     .toString(),
                 QStringLiteral("v9"));
        QFile csvFile(csvPath);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QStringList> rows = parseCsv(QString::fromUtf8(csvFile.readAll()));
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows.first(),
                 (QStringList{QStringLiteral("topic"), QStringLiteral("partition"), QStringLiteral("offset"),
                              QStringLiteral("timestamp"), QStringLiteral("key"), QStringLiteral("value"),
                              QStringLiteral("headers")}));
        QCOMPARE(rows.at(1).at(2), QStringLiteral("5"));
        QCOMPARE(rows.at(1).at(4), QStringLiteral("k5"));
        QCOMPARE(rows.at(1).at(5), QStringLiteral(R"({"n":5})"));

        // Copy to the other cluster: not connected yet, then the selection, then a range.
        QVERIFY(!panel.copyToOtherButton()->isEnabled());
        panel.setClusters(test::clusterConfig(QStringLiteral("source")), test::clusterConfig(QStringLiteral("target")));
        QVERIFY(panel.copyToOtherButton()->isEnabled());
        view->selectionModel()->select(view->model()->index(0, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view->selectionModel()->select(view->model()->index(1, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        CopyMessagesDialog *dialog = panel.openCopyDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->targetTopicBox()->currentText(), topic); // same name by default
        dialog->setTargetTopic(copyTopic);
        QSignalSpy copied1(dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog->start());
        QVERIFY(copied1.wait(30000));
        QVERIFY2(dialog->resultText() == QStringLiteral("copied 2 records to %1 on target").arg(copyTopic),
                 qPrintable(dialog->resultText()));
        QCOMPARE(dialog->progressBar()->value(), 2);
        dialog->close();

        view->clearSelection();
        dialog = panel.openCopyDialog(); // partition 0 chosen, nothing selected: a range
        QVERIFY(dialog);
        dialog->setTargetTopic(copyTopic);
        dialog->setRange(0, 3);
        QSignalSpy copied2(dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog->start());
        QVERIFY(copied2.wait(30000));
        QVERIFY2(dialog->resultText().startsWith(QLatin1String("copied 4 records")), qPrintable(dialog->resultText()));
        // A missing target topic: the error, in the dialog.
        dialog->setTargetTopic(copyTopic + QStringLiteral("-missing"));
        QSignalSpy copied3(dialog, &CopyMessagesDialog::copyFinished);
        QVERIFY(dialog->start());
        QVERIFY(copied3.wait(30000));
        QVERIFY2(dialog->resultText().contains(QLatin1String("does not exist")), qPrintable(dialog->resultText()));
        dialog->close();

        const auto onTarget = test::consumeAll(test::targetBootstrap(), copyTopic, &error);
        QVERIFY2(onTarget, qPrintable(error));
        QCOMPARE(onTarget->size(), 6);
        QList<qint64> values;
        for (const test::TestRecord &r : *onTarget) {
            QCOMPARE(r.partition, 0);
            values << QJsonDocument::fromJson(*r.value).object().value(QStringLiteral("n")).toInteger();
        }
        std::sort(values.begin(), values.end());
        QCOMPARE(values, (QList<qint64>{0, 1, 2, 3, 5, 6}));

        // An unknown topic: the broker's answer, plainly.
        panel.topicBox()->setCurrentText(topic + QStringLiteral("-nope"));
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::LatestN)));
        failed.clear();
        panel.read();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
        QVERIFY2(panel.statusText().contains(QLatin1String("does not exist")), qPrintable(panel.statusText()));
        test::deleteTopic(bootstrap, topic);
        test::deleteTopic(test::targetBootstrap(), copyTopic);
    }
};

QTEST_MAIN(TstGroupsMessages)
#include "tst_groupsmessages.moc"
