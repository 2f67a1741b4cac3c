// The job editor's live plan and Run, offscreen: matched, created and
// excluded topics against the sandbox's mock clusters, the configs a created
// topic gets (real brokers: the mock cannot hold topic configs), an
// unreachable cluster, the ACL sync tab, and Run starting the job in the main window.

#include "JobEditorTestUtil.h"
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/sandbox/Sandbox.h"
#include "model/tables/JobListModel.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/job/PlanView.h"
#include "ui/window/MainWindow.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace md::test;

class TestJobEditorPlan final : public QObject, private JobEditorFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEditorTest(QStringLiteral("tst_jobeditorplan")); }

    void planShowsMatchedCreatedAndExcludedTopics()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        PlanView *plan = e->planView();
        plan->setDebounceMs(100);
        field<QLineEdit>(e, QStringLiteral("source.alias"))->setText(QStringLiteral("src"));
        field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(sandbox->sourceBootstrap());
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(sandbox->targetBootstrap());
        field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->setPlainText(QStringLiteral("demo\\..*"));
        field<QPlainTextEdit>(e, QStringLiteral("topics.exclude"))->setPlainText(QStringLiteral("demo\\.clicks"));
        e->validateNow();
        QVERIFY(!hasErrors(e->issues()));
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Ready, 30000);

        const MirrorPlan p = plan->plan();
        QCOMPARE(p.topics.size(), 2);
        QCOMPARE(p.topics.at(0).sourceTopic, QStringLiteral("demo.orders"));
        QCOMPARE(p.topics.at(0).targetTopic, QStringLiteral("src.demo.orders"));
        QCOMPARE(p.topics.at(0).action, TopicPlanEntry::Action::Create);
        QCOMPARE(p.topics.at(0).sourcePartitions, 6);
        QCOMPARE(p.topics.at(1).sourceTopic, QStringLiteral("demo.payments"));
        QCOMPARE(p.topics.at(1).sourcePartitions, 3);
        QCOMPARE(p.excluded.size(), 1);
        QCOMPARE(p.excluded.at(0).topic, QStringLiteral("demo.clicks"));
        QVERIFY(!p.excluded.at(0).reason.isEmpty());
        QTableWidget *table = plan->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("src.demo.orders"));
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("create"));
        QVERIFY2(table->item(0, 4)->text().contains(QLatin1Char('6')), qPrintable(table->item(0, 4)->text()));
        QCOMPARE(table->item(2, 3)->text(), QStringLiteral("excluded"));
        QVERIFY2(plan->statusText().startsWith(QStringLiteral("2 topics to mirror, 2 to create, 1 excluded")),
                 qPrintable(plan->statusText()));

        // Once the target holds the topics, the plan mirrors into them.
        MirrorJobSpec spec;
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = sandbox->sourceBootstrap();
        spec.target.bootstrap = sandbox->targetBootstrap();
        spec.include = {QStringLiteral("demo\\.(orders|payments)")};
        spec.syncTopicConfigs = false;
        QCOMPARE(sandbox->prepareTarget(spec).size(), 3); // and the job's offset map
        // The mock's metadata may trail the creation for a moment: probe until it shows.
        QElapsedTimer waited;
        waited.start();
        bool mirrored = false;
        while (!mirrored && waited.elapsed() < 30000) {
            QSignalSpy updated(plan, &PlanView::planUpdated);
            plan->refreshNow();
            QVERIFY(updated.wait(20000));
            mirrored = plan->state() == PlanView::State::Ready &&
                       plan->plan().topics.value(0).action == TopicPlanEntry::Action::Mirror &&
                       plan->plan().topics.value(1).action == TopicPlanEntry::Action::Mirror;
        }
        QVERIFY(mirrored);
        QCOMPARE(plan->table()->item(0, 3)->text(), QStringLiteral("mirror"));

        // An unreachable cluster is said plainly; a stale result never overwrites a newer edit.
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(QStringLiteral("127.0.0.1:1"));
        e->validateNow();
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Unreachable, 30000);
        QVERIFY2(plan->statusText().contains(QStringLiteral("Target")) &&
                     plan->statusText().contains(QStringLiteral("UNREACHABLE")),
                 qPrintable(plan->statusText()));
        QVERIFY(plan->statusText().contains(QStringLiteral("127.0.0.1:1")));
        QCOMPARE(plan->table()->rowCount(), 0);
        e->document()->clearPendingSecrets();
        ws.setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        QVERIFY(ws.closeAll());
    }

    void planShowsTheConfigsOfCreatedTopics()
    {
        // Real brokers: the mock clusters cannot hold topic configs.
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString topic = test::uniqueName(QStringLiteral("editorcfg"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 2,
                                   {{QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
                                    {QStringLiteral("retention.ms"), QStringLiteral("3600000")},
                                    {QStringLiteral("min.insync.replicas"), QStringLiteral("1")}},
                                   &error),
                 qPrintable(error));
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        PlanView *plan = e->planView();
        plan->setDebounceMs(100);
        field<QLineEdit>(e, QStringLiteral("source.alias"))->setText(QStringLiteral("eu"));
        field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(test::sourceBootstrap());
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(test::targetBootstrap());
        field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->setPlainText(topic);
        e->validateNow();
        QVERIFY(!hasErrors(e->issues()));
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Ready, 30000);

        QCOMPARE(plan->plan().topics.size(), 1);
        QTableWidget *table = plan->table();
        QCOMPARE(table->columnCount(), int(PlanView::ColumnCount));
        QCOMPARE(table->horizontalHeaderItem(PlanView::ConfigsColumn)->text(), QStringLiteral("Created with configs"));
        QCOMPARE(table->item(0, PlanView::ActionColumn)->text(), QStringLiteral("create"));
        QVERIFY2(
            table->item(0, PlanView::NoteColumn)->text().contains(QStringLiteral("2 partitions, replication factor 1")),
            qPrintable(table->item(0, PlanView::NoteColumn)->text()));
        // Only what will be set on the new topic; min.insync.replicas is one of MM2's exclusions.
        QTableWidgetItem *configs = table->item(0, PlanView::ConfigsColumn);
        QCOMPARE(configs->text(), QStringLiteral("cleanup.policy=compact, retention.ms=3600000"));
        QCOMPARE(configs->data(Qt::UserRole).toMap(),
                 (QVariantMap{{QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
                              {QStringLiteral("retention.ms"), QStringLiteral("3600000")}}));
        QVERIFY2(configs->toolTip().contains(QStringLiteral("retention.ms=3600000\n")) ||
                     configs->toolTip().endsWith(QStringLiteral("retention.ms=3600000")),
                 qPrintable(configs->toolTip()));

        // The profile's own exclusions replace MM2's: the plan follows as the editor changes.
        field<QPlainTextEdit>(e, QStringLiteral("configExclude"))->setPlainText(QStringLiteral("retention\\..*"));
        e->validateNow();
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Ready &&
                                     plan->table()->item(0, PlanView::ConfigsColumn) &&
                                     plan->table()->item(0, PlanView::ConfigsColumn)->text() ==
                                         QStringLiteral("cleanup.policy=compact, min.insync.replicas=1"),
                                 30000);

        // No config sync: the created topic gets the target's defaults, and the cell says why.
        field<QCheckBox>(e, QStringLiteral("syncTopicConfigs"))->setChecked(false);
        e->validateNow();
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Ready &&
                                     plan->table()->item(0, PlanView::ConfigsColumn) &&
                                     plan->table()
                                         ->item(0, PlanView::ConfigsColumn)
                                         ->text()
                                         .contains(QStringLiteral("syncTopicConfigs is off")),
                                 30000);
        QVERIFY(plan->table()->item(0, PlanView::ConfigsColumn)->data(Qt::UserRole).toMap().isEmpty());
        QVERIFY2(test::deleteTopic(test::sourceBootstrap(), topic, &error), qPrintable(error));
        e->document()->clearPendingSecrets();
        ws.setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        QVERIFY(ws.closeAll());
    }

    void planSaysWhatAclSyncWouldDo()
    {
        // The mock clusters have no ACL API: the round runs, and says it could not check.
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        PlanView *plan = e->planView();
        plan->setDebounceMs(100);
        QListWidget *list = plan->aclSyncList();
        QCOMPARE(list->item(0)->text(), QStringLiteral("No ACL sync plan while the profile has errors."));
        field<QLineEdit>(e, QStringLiteral("source.alias"))->setText(QStringLiteral("src"));
        field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(sandbox->sourceBootstrap());
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(sandbox->targetBootstrap());
        field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->setPlainText(QStringLiteral("demo\\..*"));
        QSignalSpy aclUpdated(plan, &PlanView::aclSyncUpdated);
        e->validateNow();
        QVERIFY(!hasErrors(e->issues()));
        // Off: said with the plan, and neither cluster is asked.
        QTRY_VERIFY_WITH_TIMEOUT(plan->state() == PlanView::State::Ready && aclUpdated.count() > 0, 30000);
        QCOMPARE(plan->aclSync().state, AclSyncPreview::State::Off);
        QVERIFY2(list->item(0)->text().startsWith(QStringLiteral("ACL sync is off")),
                 qPrintable(list->item(0)->text()));

        field<QCheckBox>(e, QStringLiteral("acls.sync"))->setChecked(true);
        aclUpdated.clear();
        e->validateNow();
        QTRY_VERIFY_WITH_TIMEOUT(aclUpdated.count() > 0 && plan->aclSync().state != AclSyncPreview::State::Off, 30000);
        QCOMPARE(plan->aclSync().state, AclSyncPreview::State::Failed);
        QVERIFY2(list->item(0)->text().startsWith(QStringLiteral("ACL sync (safe mode, every 60 s): not checked: "
                                                                 "cannot list the source's ACLs")),
                 qPrintable(list->item(0)->text()));
        QCOMPARE(list->count(), 1);
        e->document()->clearPendingSecrets();
        ws.setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        QVERIFY(ws.closeAll());
    }

    void runStartsTheJobInTheWindow()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        MainWindow window;
        JobWorkspace *ws = window.workspace();
        ws->setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        JobEditor *e = ws->newDocument();
        field<QLineEdit>(e, QStringLiteral("name"))->setText(QStringLiteral("editor run"));
        field<QLineEdit>(e, QStringLiteral("source.alias"))->setText(QStringLiteral("src"));
        field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(sandbox->sourceBootstrap());
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(sandbox->targetBootstrap());
        field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->setPlainText(QStringLiteral("demo\\.payments"));
        field<QCheckBox>(e, QStringLiteral("syncTopicConfigs"))->setChecked(false);
        e->validateNow();
        auto *run = e->findChild<QPushButton *>(QStringLiteral("runJob"));
        QVERIFY(run->isEnabled());
        QSignalSpy runSpy(ws, &JobWorkspace::runRequested);
        run->click();
        QCOMPARE(runSpy.count(), 1);
        QCOMPARE(window.jobModel()->rowCount(), 1);
        QCOMPARE(window.jobModel()->index(0, 0).data().toString(), QStringLiteral("editor run"));
        // The job runs, and the job list says so.
        QTRY_COMPARE_WITH_TIMEOUT(window.jobModel()->index(0, JobListModel::State).data().toString(),
                                  QStringLiteral("running"), 15000);
        window.close();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000); // once the job has stopped
    }
};

QTEST_MAIN(TestJobEditorPlan)
#include "tst_jobeditorplan.moc"
