// Topic browsing and administration in a ClusterPane against the real
// "source" broker, driven through the pane's actions and the dialogs' own
// widgets: create (bad names refused in the dialog; an existing topic's error
// shown in plain words), details with partitions and config sources, alter and
// reset a config (source "dynamic" and back), add partitions (never fewer),
// delete with the typed confirmation (a wrong name refuses), the ACL tab on a
// broker without authorizer, auto-refresh choices and selection across refreshes.
// KRaft trails admin changes in metadata and DescribeConfigs: every check polls.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "model/tables/AclTableModel.h"
#include "model/tables/PartitionDetailModel.h"
#include "model/tables/TopicConfigModel.h"
#include "model/tables/TopicTableModel.h"
#include "ui/cluster/AclView.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/TopicDetails.h"
#include "ui/dialogs/AdminDialogs.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace md;

namespace {
constexpr int kBrokerWaitMs = 40000;

template <typename Dialog> Dialog *openDialog(ClusterPane *pane)
{
    const auto all = pane->findChildren<Dialog *>();
    for (Dialog *d : all)
        if (d->isVisible())
            return d;
    return nullptr;
}

bool hasTopic(ClusterPane *pane, const QString &name, int *partitions = nullptr)
{
    for (const TopicInfo &t : pane->topicModel()->topics()) {
        if (t.name == name) {
            if (partitions)
                *partitions = int(t.partitions.size());
            return true;
        }
    }
    return false;
}

const ConfigEntry *shownConfig(ClusterPane *pane, const QString &name)
{
    return pane->details()->configModel()->entry(name);
}
} // namespace

class TestTopicAdmin final : public QObject {
    Q_OBJECT

    std::unique_ptr<ClusterPane> m_pane;
    QString m_topic;

    // Polls pred, asking the pane for fresh metadata and configs now and then.
    template <typename Pred> bool eventually(Pred pred, int timeoutMs = kBrokerWaitMs)
    {
        QElapsedTimer total;
        total.start();
        QElapsedTimer sinceRefresh;
        sinceRefresh.start();
        while (!pred()) {
            if (total.elapsed() > timeoutMs)
                return false;
            if (sinceRefresh.elapsed() > 1500) {
                m_pane->refresh();
                sinceRefresh.restart();
            }
            QTest::qWait(50);
        }
        return true;
    }

    // Waits for the pane's admin action to finish; returns its ok flag (false on timeout too).
    bool finished(QSignalSpy &spy, QString *message)
    {
        if (spy.isEmpty() && !spy.wait(kBrokerWaitMs)) {
            *message = QStringLiteral("no answer within %1 ms").arg(kBrokerWaitMs);
            return false;
        }
        const QList<QVariant> args = spy.takeFirst();
        *message = args.at(2).toString();
        return args.at(1).toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        m_topic = test::uniqueName(QStringLiteral("topicadmin"));
        m_pane = std::make_unique<ClusterPane>(QStringLiteral("Source"));
        m_pane->resize(1000, 800);
        m_pane->show();
        QVERIFY(!m_pane->createTopicAction()->isEnabled()); // not connected yet
        m_pane->setRefreshInterval(5000);
        QCOMPARE(m_pane->refreshInterval(), 5000);
        m_pane->connectTo(test::clusterConfig(QStringLiteral("source")));
        QVERIFY(eventually([&] { return !m_pane->client()->metadata().brokers.isEmpty(); }));
        QVERIFY(m_pane->createTopicAction()->isEnabled());
    }

    void refreshIntervals()
    {
        QComboBox *box = m_pane->refreshIntervalBox();
        QCOMPARE(box->count(), 5);
        QList<int> seen;
        for (int i = 0; i < box->count(); ++i)
            seen.append(box->itemData(i).toInt());
        QCOMPARE(seen, (QList<int>{0, 5000, 10000, 30000, 60000}));
        box->setCurrentIndex(0);
        QCOMPARE(m_pane->refreshInterval(), 0);
        m_pane->setRefreshInterval(5000);
        QCOMPARE(box->currentText(), QStringLiteral("Every 5 s"));
    }

    void createDialogRefusesBadInput()
    {
        m_pane->createTopicAction()->trigger();
        auto *dialog = openDialog<CreateTopicDialog>(m_pane.get());
        QVERIFY(dialog);
        QPushButton *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        dialog->nameEdit()->setText(QStringLiteral("has space"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog->errorText().contains(QLatin1String("a space at position 4")), qPrintable(dialog->errorText()));
        dialog->nameEdit()->setText(QStringLiteral(".."));
        QVERIFY(dialog->errorText().contains(QLatin1String("\"..\"")));
        dialog->nameEdit()->setText(QString(250, QLatin1Char('t')));
        QVERIFY(dialog->errorText().contains(QLatin1String("249")));
        dialog->nameEdit()->setText(QStringLiteral("fine"));
        dialog->configsEdit()->setPlainText(QStringLiteral("retention.ms=1\nno-equals"));
        QVERIFY2(dialog->errorText().contains(QLatin1String("line 2")), qPrintable(dialog->errorText()));
        QVERIFY(!ok->isEnabled());
        dialog->accept(); // refused: still open, nothing sent
        QVERIFY(dialog->isVisible());
        QVERIFY(!m_pane->adminBusy());
        dialog->reject();
        QTRY_VERIFY(!openDialog<CreateTopicDialog>(m_pane.get()));
    }

    void createTopicThroughDialog()
    {
        QSignalSpy done(m_pane.get(), &ClusterPane::adminActionFinished);
        m_pane->createTopicAction()->trigger();
        auto *dialog = openDialog<CreateTopicDialog>(m_pane.get());
        QVERIFY(dialog);
        dialog->nameEdit()->setText(m_topic);
        dialog->partitionsBox()->setValue(2);
        dialog->replicationBox()->setValue(1);
        dialog->configsEdit()->setPlainText(QStringLiteral("# kept an hour\nretention.ms = 3600000\n"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        dialog->accept();
        // In flight: the actions wait for the answer.
        QVERIFY(m_pane->adminBusy());
        QVERIFY(!m_pane->createTopicAction()->isEnabled());
        QVERIFY(!m_pane->deleteTopicAction()->isEnabled());
        QString message;
        QVERIFY2(finished(done, &message), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("Created topic")) && message.contains(m_topic), qPrintable(message));
        QCOMPARE(m_pane->actionStatusText(), message);
        QVERIFY(m_pane->createTopicAction()->isEnabled());

        // Listed (the pane selects a topic it created once metadata has it).
        int partitions = 0;
        QVERIFY(eventually([&] { return hasTopic(m_pane.get(), m_topic, &partitions); }));
        QCOMPARE(partitions, 2);
        QVERIFY(eventually([&] { return m_pane->selectedTopic() == m_topic; }));
        TopicDetails *details = m_pane->details();
        QCOMPARE(details->topic(), m_topic);
        QVERIFY(eventually([&] { return details->partitionModel()->rowCount() == 2; }));
        const QAbstractItemModel *parts = details->partitionView()->model();
        QCOMPARE(parts->rowCount(), 2);
        QCOMPARE(parts->index(0, PartitionDetailModel::Partition).data().toInt(), 0);
        QVERIFY(parts->index(0, PartitionDetailModel::Leader).data().toInt() >= 0);
        QVERIFY(eventually(
            [&] { return parts->index(0, PartitionDetailModel::Status).data().toString() == QLatin1String("ok"); }));
        QVERIFY(eventually([&] {
            return parts->index(1, PartitionDetailModel::HighWatermark).data().toString() == QLatin1String("0");
        }));

        // Configs with their sources: ours is dynamic, the rest are inherited.
        QVERIFY(eventually([&] {
            const ConfigEntry *e = shownConfig(m_pane.get(), QStringLiteral("retention.ms"));
            return e && e->value == QStringLiteral("3600000") && e->source == ConfigSource::Dynamic;
        }));
        const ConfigEntry *cleanup = shownConfig(m_pane.get(), QStringLiteral("cleanup.policy"));
        QVERIFY(cleanup);
        QVERIFY(cleanup->source != ConfigSource::Dynamic);
        const QAbstractItemModel *configs = details->configView()->model();
        bool sawDefault = false;
        bool sawDynamic = false;
        for (int r = 0; r < configs->rowCount(); ++r) {
            const QString source = configs->index(r, TopicConfigModel::Source).data().toString();
            sawDefault = sawDefault || source == QLatin1String("default");
            sawDynamic = sawDynamic || source == QLatin1String("dynamic");
        }
        QVERIFY(sawDefault);
        QVERIFY(sawDynamic);
        QVERIFY(m_pane->editConfigsAction()->isEnabled());
    }

    void selectionSurvivesRefresh()
    {
        QVERIFY(m_pane->selectTopic(m_topic));
        QTableView *view = m_pane->topicView();
        const auto selectedName = [&] {
            const QModelIndexList rows = view->selectionModel()->selectedRows(TopicTableModel::Name);
            return rows.size() == 1 ? rows.first().data().toString() : QString();
        };
        QCOMPARE(selectedName(), m_topic);
        for (int i = 0; i < 3; ++i) {
            QSignalSpy ready(m_pane->client(), &ClusterClient::metadataReady);
            m_pane->refresh();
            QVERIFY(ready.wait(15000));
            QCOMPARE(selectedName(), m_topic);
            QCOMPARE(m_pane->selectedTopic(), m_topic);
        }
    }

    void createExistingTopicSaysSo()
    {
        QSignalSpy done(m_pane.get(), &ClusterPane::adminActionFinished);
        m_pane->createTopicAction()->trigger();
        auto *dialog = openDialog<CreateTopicDialog>(m_pane.get());
        QVERIFY(dialog);
        dialog->nameEdit()->setText(m_topic);
        dialog->replicationBox()->setValue(1);
        dialog->accept();
        QString message;
        QVERIFY(!finished(done, &message));
        QVERIFY2(message.contains(QLatin1String("already exists"), Qt::CaseInsensitive), qPrintable(message));
        QVERIFY2(message.startsWith(QLatin1String("Could not create topic")), qPrintable(message));
        QCOMPARE(m_pane->actionStatusText(), message);
    }

    void alterAndResetConfig()
    {
        QVERIFY(eventually([&] { return m_pane->editConfigsAction()->isEnabled(); }));
        // Nothing changed: the dialog says so and stays.
        m_pane->editConfigsAction()->trigger();
        auto *dialog = openDialog<EditConfigsDialog>(m_pane.get());
        QVERIFY(dialog);
        const int row = dialog->rowOf(QStringLiteral("retention.ms"));
        QVERIFY(row >= 0);
        QCOMPARE(dialog->table()->item(row, EditConfigsDialog::SourceColumn)->text(), QStringLiteral("dynamic"));
        dialog->accept();
        QVERIFY(dialog->isVisible());
        // Only a topic's own value can be reset.
        QVERIFY(!dialog->setReset(QStringLiteral("cleanup.policy"), true));

        QSignalSpy done(m_pane.get(), &ClusterPane::adminActionFinished);
        QVERIFY(dialog->setValue(QStringLiteral("max.message.bytes"), QStringLiteral("2000000")));
        QVERIFY(dialog->setValue(QStringLiteral("retention.ms"), QStringLiteral("7200000")));
        QCOMPARE(dialog->changes().size(), 2);
        dialog->accept();
        QString message;
        QVERIFY2(finished(done, &message), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("max.message.bytes=2000000")), qPrintable(message));
        QVERIFY(eventually([&] {
            const ConfigEntry *a = shownConfig(m_pane.get(), QStringLiteral("max.message.bytes"));
            const ConfigEntry *b = shownConfig(m_pane.get(), QStringLiteral("retention.ms"));
            return a && b && a->source == ConfigSource::Dynamic && a->value == QStringLiteral("2000000") &&
                   b->value == QStringLiteral("7200000");
        }));
        const TopicConfigModel *model = m_pane->details()->configModel();
        QCOMPARE(
            model->index(model->rowOf(QStringLiteral("max.message.bytes")), TopicConfigModel::Source).data().toString(),
            QStringLiteral("dynamic"));

        // Reset retention.ms: the topic's value goes, the broker's applies again.
        m_pane->editConfigsAction()->trigger();
        dialog = openDialog<EditConfigsDialog>(m_pane.get());
        QVERIFY(dialog);
        QVERIFY(dialog->setReset(QStringLiteral("retention.ms"), true));
        dialog->accept();
        QVERIFY2(finished(done, &message), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("retention.ms reset to default")), qPrintable(message));
        QVERIFY(eventually([&] {
            const ConfigEntry *e = shownConfig(m_pane.get(), QStringLiteral("retention.ms"));
            const ConfigEntry *kept = shownConfig(m_pane.get(), QStringLiteral("max.message.bytes"));
            return e && e->source != ConfigSource::Dynamic && kept && kept->source == ConfigSource::Dynamic;
        }));

        // A value the broker refuses comes back in plain words.
        m_pane->editConfigsAction()->trigger();
        dialog = openDialog<EditConfigsDialog>(m_pane.get());
        QVERIFY(dialog);
        QVERIFY(dialog->setValue(QStringLiteral("cleanup.policy"), QStringLiteral("shred")));
        dialog->accept();
        QVERIFY(!finished(done, &message));
        QVERIFY2(message.startsWith(QLatin1String("Could not change the configs")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("shred")) || message.contains(QLatin1String("cleanup.policy")),
                 qPrintable(message));
    }

    void addPartitions()
    {
        QVERIFY(m_pane->addPartitionsAction()->isEnabled());
        m_pane->addPartitionsAction()->trigger();
        auto *dialog = openDialog<AddPartitionsDialog>(m_pane.get());
        QVERIFY(dialog);
        QCOMPARE(dialog->current(), 2);
        dialog->totalBox()->setValue(1); // fewer is impossible: the box stops at current + 1
        QCOMPARE(dialog->newTotal(), 3);
        QVERIFY(dialog->explanation().contains(QLatin1String("only add partitions")));
        dialog->totalBox()->setValue(4);
        QSignalSpy done(m_pane.get(), &ClusterPane::adminActionFinished);
        dialog->accept();
        QString message;
        QVERIFY2(finished(done, &message), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("now has 4 partition")), qPrintable(message));
        int partitions = 0;
        QVERIFY(eventually([&] {
            return hasTopic(m_pane.get(), m_topic, &partitions) && partitions == 4 &&
                   m_pane->details()->partitionModel()->rowCount() == 4;
        }));
    }

    void aclsWithoutAuthorizer()
    {
        AclView *acls = m_pane->aclView();
        m_pane->tabs()->setCurrentWidget(acls); // shown: read at once
        QVERIFY(
            eventually([&] { return !acls->busy() && acls->statusText() != QLatin1String("Reading ACLs \u2026"); }));
        QVERIFY(acls->noAuthorizer());
        QVERIFY2(acls->statusText().contains(QLatin1String("No authorizer is configured")),
                 qPrintable(acls->statusText()));
        QVERIFY(!acls->statusText().contains(QLatin1String("Could not")));
        QCOMPARE(acls->model()->rowCount(), 0);
        m_pane->tabs()->setCurrentIndex(0);
    }

    void deleteNeedsTheTypedName()
    {
        QVERIFY(m_pane->selectTopic(m_topic));
        QVERIFY(m_pane->deleteTopicAction()->isEnabled());
        m_pane->deleteTopicAction()->trigger();
        auto *dialog = openDialog<DeleteTopicDialog>(m_pane.get());
        QVERIFY(dialog);
        QPushButton *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        dialog->confirmEdit()->setText(m_topic.toUpper());
        QVERIFY(!ok->isEnabled());
        dialog->accept(); // the wrong name refuses
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->errorText().contains(QLatin1String("does not match")));
        QVERIFY(!m_pane->adminBusy());
        QTest::qWait(300);
        QVERIFY(hasTopic(m_pane.get(), m_topic));

        dialog->confirmEdit()->setText(m_topic);
        QVERIFY(ok->isEnabled());
        QSignalSpy done(m_pane.get(), &ClusterPane::adminActionFinished);
        dialog->accept();
        QString message;
        QVERIFY2(finished(done, &message), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("Deleted topic")), qPrintable(message));
        QVERIFY(eventually([&] { return !hasTopic(m_pane.get(), m_topic); }));
        // Nothing is selected afterwards, not the deleted topic's neighbour.
        QVERIFY(eventually([&] { return m_pane->selectedTopic().isEmpty(); }));
        QVERIFY(m_pane->topicView()->selectionModel()->selectedRows().isEmpty());
        QVERIFY(!m_pane->deleteTopicAction()->isEnabled());
    }

    void cleanupTestCase()
    {
        if (!m_topic.isEmpty() && m_pane)
            test::deleteTopic(test::sourceBootstrap(), m_topic);
        m_pane.reset();
    }
};

QTEST_MAIN(TestTopicAdmin)
#include "tst_topicadmin.moc"
