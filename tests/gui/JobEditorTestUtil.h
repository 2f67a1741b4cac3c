#pragma once

// Shared by the job editor tests (tst_jobeditor, tst_jobeditorplan,
// tst_jobeditorsecrets): the executable, a password that must never reach a
// file, form fields found by name, issues as check prints them, every file
// holding a byte string, and a fixture with a temporary folder, an in-memory
// keychain and the example profile to copy into it.

#include "model/profile/JobProfile.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/JobEditor.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace md::test {

inline const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
inline const QString kPassword = QStringLiteral("Pw-7f3c-never-in-a-file");

inline QByteArray readAll(const QString &path)
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

inline QStringList issueLines(const QList<ProfileIssue> &issues)
{
    QStringList out;
    for (const ProfileIssue &i : issues)
        out.append(i.toString());
    return out;
}

// Every file under the directories the app may write: the test's own folder,
// the (test-mode) settings, data and cache locations.
inline QStringList filesContaining(const QStringList &roots, const QByteArray &needle)
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

// A test class inherits it and calls initEditorTest() from initTestCase().
class JobEditorFixture {
protected:
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

    // Test-mode settings, data and cache, cleared; each test binary has its own
    // (`name`), so binaries running side by side never share them.
    void initEditorTest(const QString &name)
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDeskTest"));
        QCoreApplication::setApplicationName(name);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }
};

} // namespace md::test
