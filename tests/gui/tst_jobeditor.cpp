// The job editor and its documents, offscreen: an example profile opens in
// the form, edits are validated as they are typed with exactly the messages
// of `mirrordesk check`, save / save as round-trip, the exactly-once fields,
// the ACL sync fields, the unsaved-change question, an unreadable file, and undo / redo. The plan
// and Run: tst_jobeditorplan; passwords: tst_jobeditorsecrets.

#include "JobEditorTestUtil.h"
#include "KafkaTestEnv.h"
#include "ui/connections/SecretField.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/job/PlanView.h"
#include "ui/window/MainWindow.h"
#include "ui/window/RecentFiles.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoGroup>
#include <QUndoStack>

using namespace md;
using namespace md::test;

class TestJobEditor final : public QObject, private JobEditorFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEditorTest(QStringLiteral("tst_jobeditor")); }

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

    void aclSyncFieldsRoundTrip()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        // A profile with "acls": the form shows it, and opening it is no change.
        const QString path = copyExample(QStringLiteral("acls.mirrorjob"));
        QByteArray json = readAll(path);
        QVERIFY(json.contains("\"throttleBytesPerSecond\": 0\n"));
        json.replace("\"throttleBytesPerSecond\": 0\n",
                     "\"throttleBytesPerSecond\": 0,\n  \"acls\": { \"sync\": true, \"intervalMs\": 120000 }\n");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(json);
        }
        JobEditor *e = ws.openFile(path);
        QVERIFY(e);
        auto *sync = field<QCheckBox>(e, QStringLiteral("acls.sync"));
        auto *interval = field<QSpinBox>(e, QStringLiteral("acls.intervalMs"));
        auto *mode = field<QComboBox>(e, QStringLiteral("acls.mode"));
        QVERIFY(sync && interval && mode);
        QCOMPARE(sync->text(), QStringLiteral("Keep the target's ACLs in step (ACL sync)"));
        QVERIFY(sync->isChecked());
        QCOMPARE(interval->value(), 120000);
        QCOMPARE(mode->currentText(), QStringLiteral("safe"));
        QVERIFY(interval->isEnabled() && mode->isEnabled());
        QVERIFY(!e->document()->isModified());
        QCOMPARE(e->document()->profile().aclSyncIntervalMs, 120000);
        QVERIFY(!hasErrors(e->issues()));
        // What each does, from the profile's table, and each mode's own words.
        QVERIFY2(sync->toolTip().contains(QLatin1String("keep them in step")), qPrintable(sync->toolTip()));
        QVERIFY2(interval->toolTip().contains(QLatin1String("1000 to 86400000")), qPrintable(interval->toolTip()));
        QVERIFY2(mode->toolTip().contains(QLatin1String("MirrorMaker 2")), qPrintable(mode->toolTip()));
        QVERIFY(mode->itemData(mode->findText(QStringLiteral("safe")), Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("no ALLOW WRITE")));
        QVERIFY(e->findChild<QLabel *>(QStringLiteral("aclSyncNote"))
                    ->text()
                    .contains(QLatin1String("Only bindings this job created are ever deleted")));

        // Off: a change like any other, one undo step; interval and mode wait, their values kept.
        const int steps = e->undoStack()->count();
        sync->setChecked(false);
        QVERIFY(e->document()->isModified());
        QCOMPARE(e->undoStack()->count(), steps + 1);
        QVERIFY(!e->document()->profile().syncAcls);
        QVERIFY(!interval->isEnabled() && !mode->isEnabled());
        QVERIFY(ws.save(e));
        QList<ProfileIssue> issues;
        std::optional<JobProfile> saved = JobProfile::load(path, &issues);
        QVERIFY2(saved, qPrintable(issueLines(issues).join(QLatin1Char('\n'))));
        QVERIFY(!saved->syncAcls);
        QCOMPARE(saved->aclSyncIntervalMs, 120000);
        QCOMPARE(saved->aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);

        // On again, another interval, exact mode: saved, and reopened into the same form.
        sync->setChecked(true);
        interval->setValue(30000);
        mode->setCurrentText(QStringLiteral("exact"));
        QVERIFY(e->document()->isModified());
        QCOMPARE(e->document()->profile().aclSyncMode, MirrorJobSpec::AclSyncMode::Exact);
        e->validateNow();
        QVERIFY2(!hasErrors(e->issues()), qPrintable(issueLines(e->issues()).join(QLatin1Char('\n'))));
        QVERIFY(ws.save(e));
        const QByteArray written = readAll(path);
        QVERIFY2(written.contains("\"mode\": \"exact\"") && written.contains("\"intervalMs\": 30000"),
                 written.constData());
        saved = JobProfile::load(path, &issues);
        QVERIFY(saved);
        QVERIFY(saved->syncAcls);
        QCOMPARE(saved->aclSyncIntervalMs, 30000);
        QCOMPARE(saved->aclSyncMode, MirrorJobSpec::AclSyncMode::Exact);
        QCOMPARE(*saved, e->document()->profile());
        QVERIFY(ws.closeEditor(e));
        JobEditor *again = ws.openFile(path);
        QVERIFY(again);
        QVERIFY(field<QCheckBox>(again, QStringLiteral("acls.sync"))->isChecked());
        QCOMPARE(field<QSpinBox>(again, QStringLiteral("acls.intervalMs"))->value(), 30000);
        QCOMPARE(field<QComboBox>(again, QStringLiteral("acls.mode"))->currentText(), QStringLiteral("exact"));
        QVERIFY(!again->document()->isModified());
        // The origin header (active/active) is edited and saved the same way.
        auto *origin = field<QLineEdit>(again, QStringLiteral("originHeader"));
        QVERIFY(origin);
        origin->setText(QStringLiteral("mirrordesk.origin"));
        QCOMPARE(again->document()->profile().originHeader, QStringLiteral("mirrordesk.origin"));
        QVERIFY(ws.save(again));
        saved = JobProfile::load(path, &issues);
        QVERIFY(saved);
        QCOMPARE(saved->originHeader, QStringLiteral("mirrordesk.origin"));
        // The box stops at the key's range.
        field<QSpinBox>(again, QStringLiteral("acls.intervalMs"))->setValue(0);
        QCOMPARE(field<QSpinBox>(again, QStringLiteral("acls.intervalMs"))->value(), JobProfile::MinAclSyncIntervalMs);
        ws.setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        QVERIFY(ws.closeAll());

        // A profile without "acls" shows the defaults, and an edit elsewhere writes none.
        const QString plain = copyExample(QStringLiteral("no-acls.mirrorjob"));
        JobEditor *p = ws.openFile(plain);
        QVERIFY(p);
        QVERIFY(!field<QCheckBox>(p, QStringLiteral("acls.sync"))->isChecked());
        QCOMPARE(field<QSpinBox>(p, QStringLiteral("acls.intervalMs"))->value(), JobProfile::DefaultAclSyncIntervalMs);
        QCOMPARE(field<QComboBox>(p, QStringLiteral("acls.mode"))->currentText(), QStringLiteral("safe"));
        QVERIFY(!field<QSpinBox>(p, QStringLiteral("acls.intervalMs"))->isEnabled());
        QVERIFY(!p->document()->isModified());
        field<QLineEdit>(p, QStringLiteral("name"))->setText(QStringLiteral("orders to DR, no ACLs"));
        // Sync on and off again is no change at all.
        field<QCheckBox>(p, QStringLiteral("acls.sync"))->setChecked(true);
        field<QCheckBox>(p, QStringLiteral("acls.sync"))->setChecked(false);
        QVERIFY(ws.save(p));
        QVERIFY2(!readAll(plain).contains("\"acls\""), readAll(plain).constData());
        saved = JobProfile::load(plain, &issues);
        QVERIFY(saved);
        QVERIFY(!saved->syncAcls);
        QCOMPARE(saved->aclSyncIntervalMs, JobProfile::DefaultAclSyncIntervalMs);
        QCOMPARE(*saved, p->document()->profile());
        QVERIFY(ws.closeAll());
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
};

QTEST_MAIN(TestJobEditor)
#include "tst_jobeditor.moc"
