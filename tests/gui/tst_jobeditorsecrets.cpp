// The job editor and passwords, offscreen: a password never lands in a file
// the app writes (profile, settings, data, cache); it goes to the keychain,
// or without one to an environment reference, or in clear text only when the
// user chooses it (then owner-only, with a warning).

#include "JobEditorTestUtil.h"
#include "ui/connections/SecretField.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/RecentFiles.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace md;
using namespace md::test;

class TestJobEditorSecrets final : public QObject, private JobEditorFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEditorTest(QStringLiteral("tst_jobeditorsecrets")); }

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

QTEST_MAIN(TestJobEditorSecrets)
#include "tst_jobeditorsecrets.moc"
