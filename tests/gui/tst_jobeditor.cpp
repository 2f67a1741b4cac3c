// The job editor and its documents, offscreen: an example profile opens in
// the form, edits are validated as they are typed with exactly the messages
// of `mirrordesk check`, save / save as round-trip, the unsaved-change
// question, the live plan against the sandbox's mock clusters, Run, and the
// rule that a password never lands in a file the app writes unless the user
// chose clear text (then owner-only, with a warning).
#include "JobDocument.h"
#include "JobEditor.h"
#include "JobListModel.h"
#include "JobWorkspace.h"
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "MainWindow.h"
#include "MirrorJob.h"
#include "PlanView.h"
#include "RecentFiles.h"
#include "Sandbox.h"
#include "SecretField.h"
#include "SecretStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoGroup>
#include <QUndoStack>

using namespace md;

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
const QString kPassword = QStringLiteral("Pw-7f3c-never-in-a-file");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

template <typename T> T *field(JobEditor *e, const QString &name)
{
    T *w = e->findChild<T *>(name);
    if (!w)
        qWarning("no field %s", qPrintable(name));
    return w;
}

QStringList issueLines(const QList<ProfileIssue> &issues)
{
    QStringList out;
    for (const ProfileIssue &i : issues)
        out.append(i.toString());
    return out;
}

// Every file under the directories the app may write: the test's own folder,
// the (test-mode) settings, data and cache locations.
QStringList filesContaining(const QStringList &roots, const QByteArray &needle)
{
    QStringList hits;
    for (const QString &root : roots) {
        QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            if (readAll(f).contains(needle))
                hits.append(f);
        }
    }
    return hits;
}

} // namespace

class TestJobEditor final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    MemorySecretBackend *m_backend = nullptr;

    std::unique_ptr<SecretStore> makeStore()
    {
        auto backend = std::make_unique<MemorySecretBackend>();
        m_backend = backend.get();
        return std::make_unique<SecretStore>(std::move(backend));
    }

    QString copyExample(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        if (!QFile::copy(QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/orders-to-dr.mirrorjob"), path))
            return {};
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDeskTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_jobeditor"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void opensExampleIntoEveryField()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        const QString path = copyExample(QStringLiteral("orders.mirrorjob"));
        JobEditor *e = ws.openFile(path);
        QVERIFY(e);
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("name"))->text(), QStringLiteral("orders to DR"));
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->text(),
                 QStringLiteral("kafka-eu-1:9093,kafka-eu-2:9093"));
        QCOMPARE(field<QComboBox>(e, QStringLiteral("source.security"))->currentText(), QStringLiteral("sasl_ssl"));
        QCOMPARE(field<QComboBox>(e, QStringLiteral("source.sasl.mechanism"))->currentText(),
                 QStringLiteral("SCRAM-SHA-512"));
        auto *password = field<SecretField>(e, QStringLiteral("source.sasl.password"));
        QCOMPARE(password->mode(), SecretField::Mode::Environment);
        QCOMPARE(password->lineEdit()->text(), QStringLiteral("EU_PASSWORD"));
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("source.ssl.ca"))->text(),
                 QStringLiteral("/etc/ssl/certs/eu-kafka-ca.pem"));
        QCOMPARE(field<QPlainTextEdit>(e, QStringLiteral("source.properties"))->toPlainText(),
                 QStringLiteral("client.rack=eu-1a"));
        QCOMPARE(field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->toPlainText(),
                 QStringLiteral("orders\\..*\npayments"));
        QCOMPARE(field<QComboBox>(e, QStringLiteral("naming.policy"))->currentText(), QStringLiteral("prefix"));
        QCOMPARE(field<QComboBox>(e, QStringLiteral("start"))->currentText(), QStringLiteral("earliest"));
        // Opening is not a change, and the form reproduces the file's profile exactly.
        QVERIFY(!e->document()->isModified());
        QList<ProfileIssue> issues;
        std::optional<JobProfile> onDisk = JobProfile::load(path, &issues);
        QVERIFY(onDisk);
        QCOMPARE(e->document()->profile(), *onDisk);
        QVERIFY(!hasErrors(e->issues()));
        QVERIFY(ws.recentFiles()->files().contains(path));
        // A second open of the same file brings the same editor forward.
        QCOMPARE(ws.openFile(path), e);
        QCOMPARE(ws.editors().size(), 1);
    }

    void validationMatchesCheckCommand()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        const QString path = copyExample(QStringLiteral("invalid.mirrorjob"));
        JobEditor *e = ws.openFile(path);
        QVERIFY(e);
        field<QPlainTextEdit>(e, QStringLiteral("topics.include"))->setPlainText(QStringLiteral("orders[\npayments"));
        field<QLineEdit>(e, QStringLiteral("source.alias"))->clear();
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(QStringLiteral("kafka-dr:99999"));
        // Validation follows typing (debounced), beside the field and in the list.
        QTRY_VERIFY(!e->fieldIssueText(QStringLiteral("topics.include")).isEmpty());
        QVERIFY2(e->fieldIssueText(QStringLiteral("topics.include"))
                     .contains(QStringLiteral("[0]: invalid regular expression")),
                 qPrintable(e->fieldIssueText(QStringLiteral("topics.include"))));
        QVERIFY(e->fieldIssueText(QStringLiteral("source.alias"))
                    .contains(QStringLiteral("required with naming policy prefix")));
        QVERIFY(e->fieldIssueText(QStringLiteral("target.bootstrap"))
                    .contains(QStringLiteral("the port must be a number")));
        QVERIFY(!e->findChild<QPushButton *>(QStringLiteral("runJob"))->isEnabled());
        QCOMPARE(e->planView()->state(), PlanView::State::Invalid);

        const QStringList editorLines = issueLines(e->issues());
        QCOMPARE(editorLines.size(), 3);
        QVERIFY(ws.save(e));
        QVERIFY(!e->document()->isModified());

        // `mirrordesk check` on the saved file prints the very same lines.
        MD_REQUIRE_FILE(kExe);
        QProcess check;
        check.start(kExe, {QStringLiteral("check"), path});
        QVERIFY(check.waitForFinished(30000));
        QCOMPARE(check.exitCode(), 1);
        const QStringList checkLines =
            QString::fromUtf8(check.readAllStandardError()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(issueLines(e->issues()), checkLines);
        QCOMPARE(editorLines, checkLines);
    }

    void saveAsRoundTripsAndTracksModified()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        const QString original = copyExample(QStringLiteral("roundtrip.mirrorjob"));
        const QByteArray originalBytes = readAll(original);
        JobEditor *e = ws.openFile(original);
        QVERIFY(e);
        auto *name = field<QLineEdit>(e, QStringLiteral("name"));
        name->setText(QStringLiteral("orders to DR, copy"));
        QVERIFY(e->document()->isModified());
        // Typing the old text back is no change at all.
        name->setText(QStringLiteral("orders to DR"));
        QVERIFY(!e->document()->isModified());

        name->setText(QStringLiteral("orders to DR, copy"));
        field<QComboBox>(e, QStringLiteral("naming.policy"))->setCurrentText(QStringLiteral("template"));
        field<QLineEdit>(e, QStringLiteral("naming.template"))->setText(QStringLiteral("dr-${topic}"));
        field<QComboBox>(e, QStringLiteral("start"))->setCurrentText(QStringLiteral("timestamp"));
        field<QLineEdit>(e, QStringLiteral("start.timestamp"))->setText(QStringLiteral("2026-11-01T00:00:00Z"));
        field<QComboBox>(e, QStringLiteral("stop"))->setCurrentText(QStringLiteral("records"));
        field<QDoubleSpinBox>(e, QStringLiteral("stop.records"))->setValue(1000);
        field<QDoubleSpinBox>(e, QStringLiteral("throttleBytesPerSecond"))->setValue(5000000);
        field<QCheckBox>(e, QStringLiteral("createTopics"))->setChecked(false);
        field<QCheckBox>(e, QStringLiteral("offsetMap"))->setChecked(false);
        field<QPlainTextEdit>(e, QStringLiteral("target.producerProperties"))
            ->setPlainText(QStringLiteral("linger.ms=5\ncompression.type=zstd"));
        field<QPlainTextEdit>(e, QStringLiteral("source.consumerProperties"))
            ->setPlainText(QStringLiteral("fetch.max.bytes=1048576"));
        field<QPlainTextEdit>(e, QStringLiteral("configExclude"))->setPlainText(QStringLiteral("retention\\..*"));
        field<QLineEdit>(e, QStringLiteral("groupId"))->setText(QStringLiteral("dr-mirror"));
        e->validateNow();
        QVERIFY2(!hasErrors(e->issues()), qPrintable(issueLines(e->issues()).join(QLatin1Char('\n'))));

        const QString copy = m_dir.filePath(QStringLiteral("roundtrip-copy.mirrorjob"));
        QSignalSpy pathSpy(e->document(), &JobDocument::pathChanged);
        QVERIFY(ws.saveAs(e, copy));
        QCOMPARE(pathSpy.count(), 1);
        QCOMPARE(e->document()->path(), copy);
        QVERIFY(!e->document()->isModified());
        QCOMPARE(readAll(original), originalBytes); // save as leaves the original alone

        QList<ProfileIssue> issues;
        std::optional<JobProfile> reloaded = JobProfile::load(copy, &issues);
        QVERIFY2(reloaded, qPrintable(issueLines(issues).join(QLatin1Char('\n'))));
        QCOMPARE(*reloaded, e->document()->profile());
        QCOMPARE(reloaded->naming, NamingPolicy::Template);
        QCOMPARE(reloaded->startTimestamp, QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC));
        QCOMPARE(reloaded->stopAfterRecords, 1000);
        QVERIFY(!reloaded->offsetMap);
        QCOMPARE(reloaded->throttleBytesPerSecond, 5000000);
        QCOMPARE(reloaded->target.producerProperties.value(QStringLiteral("compression.type")), QStringLiteral("zstd"));
        QCOMPARE(reloaded->source.saslPassword, QStringLiteral("${env:EU_PASSWORD}"));
        QCOMPARE(ws.recentFiles()->files().value(0), copy);

        // The copy re-opens into an identical form.
        QVERIFY(ws.closeEditor(e));
        JobEditor *again = ws.openFile(copy);
        QVERIFY(again);
        QCOMPARE(again->document()->profile(), *reloaded);
        QVERIFY(!again->document()->isModified());
    }

    void exactlyOnceFieldsFollowTheDeliveryMode()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        const QString path = copyExample(QStringLiteral("eos.mirrorjob"));
        JobEditor *e = ws.openFile(path);
        QVERIFY(e);
        auto *delivery = field<QComboBox>(e, QStringLiteral("delivery"));
        auto *interval = field<QSpinBox>(e, QStringLiteral("transactionIntervalMs"));
        auto *records = field<QSpinBox>(e, QStringLiteral("transactionMaxRecords"));
        QVERIFY(delivery && interval && records);
        QCOMPARE(delivery->count(), 2);
        QCOMPARE(delivery->itemText(0), QStringLiteral("at-least-once"));
        QCOMPARE(delivery->itemText(1), QStringLiteral("exactly-once"));
        // At-least-once has no transactions: their fields are off.
        QCOMPARE(delivery->currentText(), QStringLiteral("at-least-once"));
        QVERIFY(!interval->isEnabled());
        QVERIFY(!records->isEnabled());
        QCOMPARE(interval->value(), JobProfile::DefaultTransactionIntervalMs);
        QCOMPARE(records->value(), JobProfile::DefaultTransactionMaxRecords);

        delivery->setCurrentText(QStringLiteral("exactly-once"));
        QVERIFY(interval->isEnabled());
        QVERIFY(records->isEnabled());
        QCOMPARE(e->document()->profile().delivery, DeliveryGuarantee::ExactlyOnce);

        // Out of range: check's message beside the field, and no Run.
        interval->setValue(5);
        records->setValue(0);
        e->validateNow();
        QVERIFY2(
            e->fieldIssueText(QStringLiteral("transactionIntervalMs")).contains(QStringLiteral("must be at least 10")),
            qPrintable(e->fieldIssueText(QStringLiteral("transactionIntervalMs"))));
        QVERIFY2(
            e->fieldIssueText(QStringLiteral("transactionMaxRecords")).contains(QStringLiteral("must be at least 1")),
            qPrintable(e->fieldIssueText(QStringLiteral("transactionMaxRecords"))));
        QVERIFY(!e->findChild<QPushButton *>(QStringLiteral("runJob"))->isEnabled());

        interval->setValue(250);
        records->setValue(500);
        e->validateNow();
        QVERIFY2(!hasErrors(e->issues()), qPrintable(issueLines(e->issues()).join(QLatin1Char('\n'))));
        QVERIFY(e->fieldIssueText(QStringLiteral("transactionIntervalMs")).isEmpty());
        QVERIFY(ws.save(e));
        const QByteArray saved = readAll(path);
        QVERIFY2(saved.contains("\"delivery\": \"exactly-once\""), saved.constData());
        QList<ProfileIssue> issues;
        std::optional<JobProfile> reloaded = JobProfile::load(path, &issues);
        QVERIFY2(reloaded, qPrintable(issueLines(issues).join(QLatin1Char('\n'))));
        QCOMPARE(reloaded->delivery, DeliveryGuarantee::ExactlyOnce);
        QCOMPARE(reloaded->transactionIntervalMs, 250);
        QCOMPARE(reloaded->transactionMaxRecords, 500);

        // Reopened: the form shows the file, fields on.
        QVERIFY(ws.closeEditor(e));
        JobEditor *again = ws.openFile(path);
        QVERIFY(again);
        QCOMPARE(field<QComboBox>(again, QStringLiteral("delivery"))->currentText(), QStringLiteral("exactly-once"));
        QCOMPARE(field<QSpinBox>(again, QStringLiteral("transactionIntervalMs"))->value(), 250);
        QCOMPARE(field<QSpinBox>(again, QStringLiteral("transactionMaxRecords"))->value(), 500);
        QVERIFY(field<QSpinBox>(again, QStringLiteral("transactionIntervalMs"))->isEnabled());
        QCOMPARE(again->document()->profile(), *reloaded);
        QVERIFY(!again->document()->isModified());

        // Back to at-least-once: the fields go off, their values stay for a later switch.
        field<QComboBox>(again, QStringLiteral("delivery"))->setCurrentText(QStringLiteral("at-least-once"));
        QVERIFY(!field<QSpinBox>(again, QStringLiteral("transactionIntervalMs"))->isEnabled());
        QCOMPARE(again->document()->profile().delivery, DeliveryGuarantee::AtLeastOnce);
        QCOMPARE(again->document()->profile().transactionIntervalMs, 250);
    }

    void unsavedChangesAreAskedAbout()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        QList<JobWorkspace::Question> asked;
        int answer = QMessageBox::Cancel;
        ws.setQuestionHook([&](JobWorkspace::Question q, const QString &) {
            asked.append(q);
            return answer;
        });
        const QString path = copyExample(QStringLiteral("unsaved.mirrorjob"));
        const QByteArray before = readAll(path);

        // Unmodified: closes without a question.
        JobEditor *e = ws.openFile(path);
        QVERIFY(ws.closeEditor(e));
        QVERIFY(asked.isEmpty());

        e = ws.openFile(path);
        field<QLineEdit>(e, QStringLiteral("name"))->setText(QStringLiteral("renamed"));
        answer = QMessageBox::Cancel;
        QVERIFY(!ws.closeEditor(e));
        QCOMPARE(asked, QList<JobWorkspace::Question>{JobWorkspace::Question::UnsavedChanges});
        QCOMPARE(ws.editors().size(), 1);
        QVERIFY(!ws.closeAll()); // what quitting does: cancelled too

        answer = QMessageBox::Discard;
        QVERIFY(ws.closeEditor(e));
        QVERIFY(ws.editors().isEmpty());
        QCOMPARE(readAll(path), before);

        e = ws.openFile(path);
        field<QLineEdit>(e, QStringLiteral("name"))->setText(QStringLiteral("renamed"));
        JobEditor *second = ws.newDocument(); // several jobs open at once
        QCOMPARE(ws.editors().size(), 2);
        answer = QMessageBox::Save;
        ws.setSaveAsHook([&](JobDocument *) { return m_dir.filePath(QStringLiteral("untitled-saved")); });
        field<QLineEdit>(second, QStringLiteral("name"))->setText(QStringLiteral("second job"));
        QVERIFY(ws.closeAll());
        QVERIFY(ws.editors().isEmpty());
        std::optional<JobProfile> saved = JobProfile::load(path, nullptr);
        QVERIFY(saved);
        QCOMPARE(saved->name, QStringLiteral("renamed"));
        // An untitled document goes through Save As, which adds the suffix.
        // (It still has errors, no bootstrap servers: saving is allowed, load() would refuse it.)
        const JobProfile untitled = JobProfile::fromJson(
            readAll(m_dir.filePath(QStringLiteral("untitled-saved.mirrorjob"))), QString(), nullptr);
        QCOMPARE(untitled.name, QStringLiteral("second job"));
    }

    void unreadableFileIsRefusedWithItsPosition()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        QString message;
        ws.setQuestionHook([&](JobWorkspace::Question q, const QString &text) {
            if (q == JobWorkspace::Question::Error)
                message = text;
            return 0;
        });
        const QString path = m_dir.filePath(QStringLiteral("broken.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"mirrordesk\": 1,\n  \"name\": \n}\n");
        f.close();
        QVERIFY(!ws.openFile(path));
        QVERIFY2(message.contains(path + QStringLiteral(":4:")) &&
                     message.contains(QStringLiteral("error: JSON syntax error")),
                 qPrintable(message));
        QVERIFY(ws.editors().isEmpty());
    }

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
        QCOMPARE(sandbox->prepareTarget(spec).size(), 2);
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

    void undoRedoWalksTheDocumentHistory()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        QMenu menu;
        ws.addEditActions(&menu);
        auto *undo = ws.findChild<QAction *>(QStringLiteral("undoEdit"));
        auto *redo = ws.findChild<QAction *>(QStringLiteral("redoEdit"));
        QVERIFY(undo && redo);
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(redo->shortcut(), QKeySequence(QKeySequence::Redo));
        JobEditor *e = ws.openFile(copyExample(QStringLiteral("undo.mirrorjob")));
        QVERIFY(e);
        QUndoStack *stack = e->undoStack();
        QCOMPARE(ws.undoGroup()->activeStack(), stack);
        QVERIFY(stack->isClean());
        QVERIFY(!undo->isEnabled());
        const JobProfile saved = e->document()->profile();

        // Typing into one field is one step; another field is the next.
        auto *name = field<QLineEdit>(e, QStringLiteral("name"));
        QTest::keyClicks(name, QStringLiteral(" v2"));
        QCOMPARE(name->text(), QStringLiteral("orders to DR v2"));
        QCOMPARE(stack->count(), 1);
        auto *create = field<QCheckBox>(e, QStringLiteral("createTopics"));
        const bool created = create->isChecked();
        create->setChecked(!created);
        QCOMPARE(stack->count(), 2);
        QVERIFY(e->document()->isModified());
        QVERIFY(!stack->isClean());

        undo->trigger();
        QCOMPARE(create->isChecked(), created);
        QCOMPARE(e->document()->profile().createTopics, created);
        QCOMPARE(name->text(), QStringLiteral("orders to DR v2"));
        QVERIFY(e->document()->isModified());
        undo->trigger();
        // Back at the saved text: every field, the document, and not modified.
        QCOMPARE(name->text(), QStringLiteral("orders to DR"));
        QCOMPARE(e->document()->profile(), saved);
        QVERIFY(!e->document()->isModified());
        QVERIFY(stack->isClean());
        QVERIFY(!undo->isEnabled());

        redo->trigger();
        redo->trigger();
        QCOMPARE(name->text(), QStringLiteral("orders to DR v2"));
        QCOMPARE(create->isChecked(), !created);
        QVERIFY(e->document()->isModified());

        // Saving moves the clean point; undoing past it is a modification again.
        QVERIFY(ws.save(e));
        QVERIFY(!e->document()->isModified());
        QVERIFY2(stack->isClean(), qPrintable(QStringLiteral("count %1 index %2 clean %3")
                                                  .arg(stack->count())
                                                  .arg(stack->index())
                                                  .arg(stack->cleanIndex())));
        undo->trigger();
        QCOMPARE(create->isChecked(), created);
        QVERIFY(e->document()->isModified());
        redo->trigger();
        QVERIFY(!e->document()->isModified());
        QVERIFY(stack->isClean());

        // Undo acts on the document in front, each with its own history.
        JobEditor *other = ws.newDocument();
        QCOMPARE(ws.undoGroup()->activeStack(), other->undoStack());
        QVERIFY(!undo->isEnabled());
        field<QLineEdit>(other, QStringLiteral("name"))->setText(QStringLiteral("second"));
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(stack->count(), 2); // the first document's history is untouched
        QCOMPARE(name->text(), QStringLiteral("orders to DR v2"));
        ws.setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        QVERIFY(ws.closeAll());

        // The main window offers them under Edit.
        MainWindow window;
        QStringList titles;
        for (QAction *a : window.menuBar()->actions())
            titles << a->text();
        QVERIFY2(titles.contains(QStringLiteral("&Edit")), qPrintable(titles.join(QLatin1Char(','))));
        QVERIFY(window.workspace()->findChild<QAction *>(QStringLiteral("undoEdit")));
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

    void passwordsGoToTheKeychainNotTheFile()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        QTRY_COMPARE(store->availability(), SecretStore::Availability::Available);
        field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(QStringLiteral("kafka-a:9092"));
        field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(QStringLiteral("kafka-b:9092"));
        field<QComboBox>(e, QStringLiteral("source.security"))->setCurrentText(QStringLiteral("sasl_plaintext"));
        field<QComboBox>(e, QStringLiteral("source.sasl.mechanism"))->setCurrentText(QStringLiteral("PLAIN"));
        field<QLineEdit>(e, QStringLiteral("source.sasl.username"))->setText(QStringLiteral("mirror"));
        auto *password = field<SecretField>(e, QStringLiteral("source.sasl.password"));
        QCOMPARE(password->mode(), SecretField::Mode::Keychain);
        password->lineEdit()->setText(kPassword);
        e->validateNow();
        QVERIFY2(!hasErrors(e->issues()), qPrintable(issueLines(e->issues()).join(QLatin1Char('\n'))));
        // Nothing about the password is in the profile before the save either.
        QVERIFY(!e->document()->profile().toJson().contains(kPassword.toUtf8()));

        const QString path = m_dir.filePath(QStringLiteral("secret.mirrorjob"));
        QVERIFY(ws.saveAs(e, path));
        const QByteArray saved = readAll(path);
        QVERIFY(!saved.contains(kPassword.toUtf8()));
        const QString ref = e->document()->profile().source.saslPassword;
        const std::optional<SecretRef> keychain = SecretRef::whole(ref);
        QVERIFY2(keychain && keychain->kind == QLatin1String("keychain"), qPrintable(ref));
        QVERIFY(saved.contains(ref.toUtf8()));
        QCOMPARE(m_backend->entries().value(keychain->arg), kPassword);
        QVERIFY(e->document()->pendingSecrets().isEmpty());
        QVERIFY(!e->document()->isModified());
        QVERIFY(password->lineEdit()->text().isEmpty()); // not kept on screen either
        // The reference resolves to the password through the same key the app's resolver reads.
        QList<ProfileIssue> issues;
        std::optional<JobProfile> reloaded = JobProfile::load(path, &issues);
        QVERIFY(reloaded);
        const auto resolver = [this](const QString &kind, const QString &arg, QString *err) -> std::optional<QString> {
            if (kind == QLatin1String("keychain") && m_backend->entries().contains(arg))
                return m_backend->entries().value(arg);
            *err = QStringLiteral("not found");
            return std::nullopt;
        };
        std::optional<MirrorJobSpec> spec = reloaded->toSpec(resolver, &issues);
        QVERIFY(spec);
        QCOMPARE(spec->source.saslPassword, kPassword);

        // Every file the app wrote: the profile, the settings (recent files), data and cache.
        QSettings().sync();
        QVERIFY(QFileInfo::exists(QSettings().fileName()));
        const QStringList roots = {m_dir.path(), QFileInfo(QSettings().fileName()).absolutePath(),
                                   QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
                                   QStandardPaths::writableLocation(QStandardPaths::CacheLocation),
                                   QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)};
        QCOMPARE(filesContaining(roots, kPassword.toUtf8()), QStringList());
        QVERIFY(ws.recentFiles()->files().contains(path)); // the settings were written, without the secret
    }

    void withoutKeychainTheUserChoosesEnvOrClear()
    {
        auto store = makeStore();
        m_backend->setUnavailable(QStringLiteral("no secret service is running"));
        JobWorkspace ws(store.get());
        int answer = JobWorkspace::UseEnvironment;
        QString question;
        ws.setQuestionHook([&](JobWorkspace::Question q, const QString &text) {
            if (q == JobWorkspace::Question::NoKeychain)
                question = text;
            return answer;
        });
        auto fill = [](JobEditor *e) {
            field<QLineEdit>(e, QStringLiteral("source.alias"))->setText(QStringLiteral("eu west"));
            field<QLineEdit>(e, QStringLiteral("source.bootstrap"))->setText(QStringLiteral("kafka-a:9092"));
            field<QLineEdit>(e, QStringLiteral("target.bootstrap"))->setText(QStringLiteral("kafka-b:9092"));
            field<QComboBox>(e, QStringLiteral("source.security"))->setCurrentText(QStringLiteral("sasl_plaintext"));
            field<QComboBox>(e, QStringLiteral("source.sasl.mechanism"))->setCurrentText(QStringLiteral("PLAIN"));
            field<QLineEdit>(e, QStringLiteral("source.sasl.username"))->setText(QStringLiteral("mirror"));
        };

        // The editor says so up front and offers the environment for new passwords.
        JobEditor *e = ws.newDocument();
        QTRY_VERIFY(e->findChild<QLabel *>(QStringLiteral("keychainNote"))->isVisibleTo(e));
        QVERIFY(e->findChild<QLabel *>(QStringLiteral("keychainNote"))
                    ->text()
                    .contains(QStringLiteral("no secret service")));
        auto *password = field<SecretField>(e, QStringLiteral("source.sasl.password"));
        QCOMPARE(password->mode(), SecretField::Mode::Environment);

        // A password typed for the keychain anyway: saving asks, and the answer "environment" writes a reference.
        fill(e);
        password->setMode(SecretField::Mode::Keychain);
        password->lineEdit()->setText(kPassword);
        const QString envPath = m_dir.filePath(QStringLiteral("nokeychain-env.mirrorjob"));
        QVERIFY(ws.saveAs(e, envPath));
        QVERIFY2(question.contains(QStringLiteral("no secret service")), qPrintable(question));
        QByteArray saved = readAll(envPath);
        QVERIFY(!saved.contains(kPassword.toUtf8()));
        QVERIFY2(saved.contains("\"password\": \"${env:EU_WEST_KAFKA_PASSWORD}\""), saved.constData());
        QCOMPARE(password->mode(), SecretField::Mode::Environment);
        QVERIFY(m_backend->entries().isEmpty());

        // Cancel: nothing is written.
        JobEditor *cancelled = ws.newDocument();
        fill(cancelled);
        auto *p2 = field<SecretField>(cancelled, QStringLiteral("source.sasl.password"));
        p2->setMode(SecretField::Mode::Keychain);
        p2->lineEdit()->setText(kPassword);
        answer = JobWorkspace::CancelSave;
        const QString cancelledPath = m_dir.filePath(QStringLiteral("nokeychain-cancel.mirrorjob"));
        QVERIFY(!ws.saveAs(cancelled, cancelledPath));
        QVERIFY(!QFileInfo::exists(cancelledPath));

        // Clear text only on request: owner-only permissions and a warning.
        answer = JobWorkspace::SaveInClear;
        const QString clearPath = m_dir.filePath(QStringLiteral("nokeychain-clear.mirrorjob"));
        QVERIFY(ws.saveAs(cancelled, clearPath));
        QVERIFY(readAll(clearPath).contains(kPassword.toUtf8()));
        QCOMPARE(QFile::permissions(clearPath) &
                     ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY2(ws.lastMessage().contains(QStringLiteral("clear text")), qPrintable(ws.lastMessage()));
        cancelled->validateNow();
        QVERIFY(e->fieldIssueText(QStringLiteral("source.sasl.password")).isEmpty());
        QVERIFY(
            cancelled->fieldIssueText(QStringLiteral("source.sasl.password")).contains(QStringLiteral("clear text")));
        // The settings never see it, whatever the user chose for the profile.
        QSettings().sync();
        QCOMPARE(filesContaining({QFileInfo(QSettings().fileName()).absolutePath()}, kPassword.toUtf8()),
                 QStringList());
        QFile::remove(clearPath);
    }
};

QTEST_MAIN(TestJobEditor)
#include "tst_jobeditor.moc"
