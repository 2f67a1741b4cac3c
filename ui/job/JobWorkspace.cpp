#include "ui/job/JobWorkspace.h"

#include "ui/connections/SecretStore.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"
#include "ui/job/PlanView.h"
#include "ui/window/RecentFiles.h"

#include <QAction>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStackedLayout>
#include <QTabWidget>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

#include <memory>

namespace md {

namespace {
const QString kSuffix = QStringLiteral(".mirrorjob");
const QString kFilter = QObject::tr("Mirror job profiles (*.mirrorjob);;All files (*)");
constexpr int kKeychainWaitMs = 15000;
} // namespace

JobWorkspace::JobWorkspace(SecretStore *secrets, QWidget *parent)
    : QWidget(parent), m_tabs(new QTabWidget(this)), m_secrets(secrets ? secrets : new SecretStore({}, this)),
      m_recent(new RecentFiles(this)), m_undoGroup(new QUndoGroup(this))
{
    m_tabs->setObjectName(QStringLiteral("jobDocuments"));
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (auto *e = qobject_cast<JobEditor *>(m_tabs->widget(index)))
            closeEditor(e);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &JobWorkspace::updateActions);
    // Undo and redo act on the document in front.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        JobEditor *e = currentEditor();
        m_undoGroup->setActiveStack(e ? e->undoStack() : nullptr);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
}

JobWorkspace::~JobWorkspace() = default;

void JobWorkspace::setResolver(const ReferenceResolver &resolver)
{
    m_resolver = resolver;
    for (JobEditor *e : editors())
        e->setResolver(resolver);
}

void JobWorkspace::addFileActions(QMenu *menu)
{
    QAction *newJob = menu->addAction(tr("&New Job"), this, [this] { newDocument(); });
    newJob->setShortcut(QKeySequence::New);
    QAction *open = menu->addAction(tr("&Open\u2026"), this, &JobWorkspace::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &JobWorkspace::rebuildRecentMenu);
    rebuildRecentMenu();
    menu->addSeparator();
    m_save = menu->addAction(tr("&Save"), this, [this] {
        if (JobEditor *e = currentEditor())
            save(e);
    });
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = menu->addAction(tr("Save &As\u2026"), this, [this] {
        if (JobEditor *e = currentEditor())
            saveAs(e);
    });
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    m_close = menu->addAction(tr("&Close"), this, [this] {
        if (JobEditor *e = currentEditor())
            closeEditor(e);
    });
    m_close->setShortcut(QKeySequence::Close);
    updateActions();
}

void JobWorkspace::addEditActions(QMenu *menu)
{
    QAction *undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoEdit"));
    undo->setShortcut(QKeySequence::Undo);
    menu->addAction(undo);
    QAction *redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoEdit"));
    redo->setShortcut(QKeySequence::Redo);
    menu->addAction(redo);
}

void JobWorkspace::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    for (const QString &f : files)
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openFile(f); });
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), m_recent, &RecentFiles::clear);
    }
}

QList<JobEditor *> JobWorkspace::editors() const
{
    QList<JobEditor *> out;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *e = qobject_cast<JobEditor *>(m_tabs->widget(i)))
            out.append(e);
    }
    return out;
}

JobEditor *JobWorkspace::currentEditor() const
{
    return qobject_cast<JobEditor *>(m_tabs->currentWidget());
}

JobEditor *JobWorkspace::addEditor(JobDocument *doc)
{
    auto *editor = new JobEditor(doc, m_secrets, m_tabs);
    doc->setParent(editor);
    m_undoGroup->addStack(editor->undoStack());
    editor->setResolver(m_resolver);
    connect(doc, &JobDocument::modifiedChanged, this, [this, editor] { updateTab(editor); });
    connect(doc, &JobDocument::pathChanged, this, [this, editor] { updateTab(editor); });
    connect(editor, &JobEditor::runRequested, this, [this, editor] { run(editor); });
    connect(editor, &JobEditor::browseRequested, this, [this, editor] { browse(editor); });
    connect(editor, &JobEditor::resetProgressRequested, this, [this, editor] { resetProgress(editor); });
    m_tabs->addTab(editor, QString());
    m_tabs->setCurrentWidget(editor);
    updateTab(editor);
    updateActions();
    Q_EMIT documentCountChanged(m_tabs->count());
    return editor;
}

JobEditor *JobWorkspace::newDocument()
{
    return addEditor(new JobDocument);
}

JobEditor *JobWorkspace::openFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (JobEditor *e : editors()) {
        if (e->document()->path() == absolute) {
            m_tabs->setCurrentWidget(e);
            return e;
        }
    }
    QString error;
    JobDocument *doc = JobDocument::open(absolute, &error);
    if (!doc) {
        if (!QFileInfo::exists(absolute))
            m_recent->remove(absolute);
        ask(Question::Error, tr("Cannot open the job profile:\n%1").arg(error));
        return nullptr;
    }
    m_recent->add(absolute);
    say(tr("Opened %1").arg(QDir::toNativeSeparators(absolute)));
    return addEditor(doc);
}

void JobWorkspace::openWithDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Mirror Job Profiles"), {}, kFilter);
    for (const QString &p : paths)
        openFile(p);
}

bool JobWorkspace::save(JobEditor *editor)
{
    if (editor->document()->isUntitled())
        return saveAs(editor);
    return write(editor, editor->document()->path());
}

bool JobWorkspace::saveAs(JobEditor *editor, const QString &givenPath)
{
    QString path = givenPath;
    if (path.isEmpty()) {
        if (m_saveAsHook) {
            path = m_saveAsHook(editor->document());
        } else {
            JobDocument *doc = editor->document();
            const QString suggestion =
                doc->isUntitled()
                    ? QDir::home().filePath(JobProfile::groupIdForName(doc->profile().name).mid(11) + kSuffix)
                    : doc->path();
            path = QFileDialog::getSaveFileName(this, tr("Save Mirror Job Profile"), suggestion, kFilter);
        }
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty())
            path += kSuffix;
    }
    return write(editor, path);
}

QString JobWorkspace::storeSecrets(JobDocument *doc)
{
    const QList<PendingSecret> pending = doc->pendingSecrets();
    if (pending.isEmpty())
        return {};
    // The keychain answers asynchronously; saving is a user action that waits for it.
    QEventLoop loop;
    QPointer<QEventLoop> guard(&loop); // a late answer after the timeout must not touch the gone loop
    auto remaining = std::make_shared<int>(int(pending.size()));
    auto failure = std::make_shared<QString>();
    for (const PendingSecret &s : pending) {
        m_secrets->writePassword(s.keychainKey, s.value, [guard, remaining, failure](bool ok, const QString &error) {
            if (!ok && failure->isEmpty())
                *failure = error.isEmpty() ? tr("the keychain refused the password") : error;
            if (--*remaining == 0 && guard)
                guard->quit();
        });
    }
    QTimer::singleShot(kKeychainWaitMs, &loop, &QEventLoop::quit);
    if (*remaining > 0)
        loop.exec();
    if (*remaining > 0 && failure->isEmpty())
        *failure = tr("the system keychain did not answer");
    return *failure;
}

bool JobWorkspace::write(JobEditor *editor, const QString &path)
{
    JobDocument *doc = editor->document();
    if (!doc->pendingSecrets().isEmpty()) {
        const QString failure = storeSecrets(doc);
        if (failure.isEmpty()) {
            editor->secretsStored();
        } else {
            const int answer =
                ask(Question::NoKeychain,
                    tr("The password cannot be stored in the system keychain: %1.\n\n"
                       "Read it from an environment variable instead (the profile then holds ${env:NAME}; "
                       "set that variable before running the job), or write it into the file in clear text "
                       "(the file is made readable by you only)?")
                        .arg(failure));
            if (answer == UseEnvironment)
                editor->pendingSecretsToEnvironment();
            else if (answer == SaveInClear)
                editor->pendingSecretsToClearText();
            else
                return false;
        }
    }
    QString error;
    if (!doc->saveTo(path, &error)) {
        ask(Question::Error, tr("Cannot save the job profile:\n%1").arg(error));
        return false;
    }
    m_recent->add(doc->path());
    if (doc->profile().hasClearSecret())
        say(tr("Saved %1 with a password in clear text: the file is readable by you only. "
               "Prefer the keychain or ${env:NAME}.")
                .arg(QDir::toNativeSeparators(doc->path())));
    else
        say(tr("Saved %1").arg(QDir::toNativeSeparators(doc->path())));
    editor->validateNow();
    return true;
}

bool JobWorkspace::closeEditor(JobEditor *editor)
{
    m_tabs->setCurrentWidget(editor);
    if (editor->document()->isModified()) {
        const int answer =
            ask(Question::UnsavedChanges, tr("The job profile \"%1\" has unsaved changes. Save them before closing?")
                                              .arg(editor->document()->displayName()));
        if (answer == QMessageBox::Cancel)
            return false;
        if (answer == QMessageBox::Save && !save(editor))
            return false;
    }
    m_tabs->removeTab(m_tabs->indexOf(editor));
    editor->deleteLater();
    updateActions();
    Q_EMIT documentCountChanged(m_tabs->count());
    return true;
}

bool JobWorkspace::closeAll()
{
    for (JobEditor *e : editors()) {
        if (!closeEditor(e))
            return false;
    }
    return true;
}

std::optional<MirrorJobSpec> JobWorkspace::resolvedSpec(JobEditor *editor, const QString &failure)
{
    editor->validateNow();
    // Passwords typed but not saved yet are used as typed.
    const QList<PendingSecret> pending = editor->document()->pendingSecrets();
    ReferenceResolver base = m_resolver;
    ReferenceResolver resolver = [pending, base](const QString &kind, const QString &arg,
                                                 QString *error) -> std::optional<QString> {
        if (kind == QLatin1String("keychain")) {
            for (const PendingSecret &s : pending) {
                if (s.keychainKey == arg)
                    return s.value;
            }
        }
        if (base)
            return base(kind, arg, error);
        *error = tr("no resolver for ${%1:...} here").arg(kind);
        return std::nullopt;
    };
    QList<ProfileIssue> issues;
    std::optional<MirrorJobSpec> spec = editor->document()->profile().toSpec(resolver, &issues);
    if (!spec) {
        QStringList lines;
        for (const ProfileIssue &i : std::as_const(issues))
            lines.append(i.toString());
        ask(Question::Error, failure.arg(lines.join(QLatin1Char('\n'))));
    }
    return spec;
}

void JobWorkspace::run(JobEditor *editor)
{
    const std::optional<MirrorJobSpec> spec = resolvedSpec(editor, tr("The job cannot start:\n%1"));
    if (!spec)
        return;
    // The window starts it, or shows the same profile's running job instead, and says which.
    Q_EMIT runRequested(*spec, editor->document()->path());
}

void JobWorkspace::browse(JobEditor *editor)
{
    const std::optional<MirrorJobSpec> spec = resolvedSpec(editor, tr("The job's clusters cannot be opened:\n%1"));
    if (!spec)
        return;
    say(tr("Browsing %1 and %2").arg(spec->source.alias, spec->target.alias));
    Q_EMIT browseRequested(*spec);
}

void JobWorkspace::resetProgress(JobEditor *editor)
{
    const std::optional<MirrorJobSpec> spec = resolvedSpec(editor, tr("The job's progress cannot be read:\n%1"));
    if (spec)
        Q_EMIT resetProgressRequested(*spec);
}

int JobWorkspace::ask(Question question, const QString &text)
{
    if (m_questionHook)
        return m_questionHook(question, text);
    switch (question) {
    case Question::UnsavedChanges:
        return QMessageBox::question(this, tr("Unsaved Changes"), text,
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    case Question::NoKeychain: {
        QMessageBox box(QMessageBox::Warning, tr("No Keychain"), text, QMessageBox::NoButton, this);
        QPushButton *env = box.addButton(tr("Use an Environment Variable"), QMessageBox::AcceptRole);
        QPushButton *clear = box.addButton(tr("Save in Clear Text"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(env);
        box.exec();
        if (box.clickedButton() == env)
            return UseEnvironment;
        if (box.clickedButton() == clear)
            return SaveInClear;
        return CancelSave;
    }
    case Question::Error: QMessageBox::warning(this, tr("MirrorDesk"), text); return 0;
    }
    return 0;
}

void JobWorkspace::updateTab(JobEditor *editor)
{
    const int index = m_tabs->indexOf(editor);
    if (index < 0)
        return;
    JobDocument *doc = editor->document();
    m_tabs->setTabText(index, doc->displayName() + (doc->isModified() ? QStringLiteral(" *") : QString()));
    m_tabs->setTabToolTip(index, doc->isUntitled() ? doc->displayName() : QDir::toNativeSeparators(doc->path()));
}

void JobWorkspace::updateActions()
{
    const bool any = currentEditor() != nullptr;
    for (QAction *a : {m_save, m_saveAs, m_close}) {
        if (a)
            a->setEnabled(any);
    }
}

void JobWorkspace::say(const QString &text)
{
    m_lastMessage = text;
    Q_EMIT statusMessage(text);
}

} // namespace md
