#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/profile/JobProfile.h"

#include <QWidget>

#include <functional>

class QAction;
class QMenu;
class QTabWidget;
class QUndoGroup;

namespace md {

class JobDocument;
class JobEditor;
class RecentFiles;
class SecretStore;

// The open job profiles, one editor tab each: new, open, open recent, save,
// save as, close, with the unsaved-change question, and the save path that
// keeps passwords out of the file (keychain, or ${env:NAME}, or clear text
// only when the user says so). Questions go through a hook so tests answer them.
class JobWorkspace final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobWorkspace)
public:
    enum class Question {
        UnsavedChanges, // answer QMessageBox::Save, Discard or Cancel
        NoKeychain,     // answer UseEnvironment, SaveInClear or Cancel (below)
        Error,          // a message; the answer is ignored
    };
    enum NoKeychainAnswer { UseEnvironment = 1, SaveInClear = 2, CancelSave = 3 };
    using QuestionHook = std::function<int(Question question, const QString &text)>;
    using SaveAsHook = std::function<QString(JobDocument *document)>;

    // secrets: nullptr uses the system keychain.
    explicit JobWorkspace(SecretStore *secrets = nullptr, QWidget *parent = nullptr);
    ~JobWorkspace() override;

    // Resolves ${keychain:}/${sandbox:} references for the plan and for Run.
    void setResolver(const ReferenceResolver &resolver);
    void setQuestionHook(const QuestionHook &hook) { m_questionHook = hook; }
    void setSaveAsHook(const SaveAsHook &hook) { m_saveAsHook = hook; }

    // New Job, Open..., Open Recent, Save, Save As, Close.
    void addFileActions(QMenu *menu);
    // Edit > Undo / Redo (standard shortcuts) for the current document's history.
    void addEditActions(QMenu *menu);
    QUndoGroup *undoGroup() const { return m_undoGroup; }

    JobEditor *newDocument();
    // Opens (or brings forward, when already open) a profile; nullptr after
    // telling the user why it cannot be edited.
    JobEditor *openFile(const QString &path);
    void openWithDialog();
    bool save(JobEditor *editor);
    bool saveAs(JobEditor *editor, const QString &path = QString());
    // Asks about unsaved changes; false when the user cancelled.
    bool closeEditor(JobEditor *editor);
    bool closeAll();
    void run(JobEditor *editor);
    // Opens the job's source and target in the window's two panes, nothing started.
    void browse(JobEditor *editor);
    // Asks for the Reset Progress dialog of the editor's job (resetProgressRequested).
    void resetProgress(JobEditor *editor);

    QList<JobEditor *> editors() const;
    JobEditor *currentEditor() const;
    RecentFiles *recentFiles() const { return m_recent; }
    SecretStore *secretStore() const { return m_secrets; }
    QString lastMessage() const { return m_lastMessage; }

Q_SIGNALS:
    // profilePath: the profile's file (absolute), empty while untitled.
    void runRequested(const md::MirrorJobSpec &spec, const QString &profilePath);
    void browseRequested(const md::MirrorJobSpec &spec);
    void resetProgressRequested(const md::MirrorJobSpec &spec);
    void documentCountChanged(int count);
    void statusMessage(const QString &text);

private:
    JobEditor *addEditor(JobDocument *doc);
    // The editor's profile as a spec, references resolved; nullopt after telling
    // the user why (`failure` has %1 for the problems).
    std::optional<MirrorJobSpec> resolvedSpec(JobEditor *editor, const QString &failure);
    bool write(JobEditor *editor, const QString &path);
    QString storeSecrets(JobDocument *doc);
    int ask(Question question, const QString &text);
    void updateTab(JobEditor *editor);
    void updateActions();
    void rebuildRecentMenu();
    void say(const QString &text);

    QTabWidget *m_tabs;
    SecretStore *m_secrets;
    RecentFiles *m_recent;
    ReferenceResolver m_resolver;
    QuestionHook m_questionHook;
    SaveAsHook m_saveAsHook;
    QMenu *m_recentMenu = nullptr;
    QAction *m_save = nullptr;
    QAction *m_saveAs = nullptr;
    QAction *m_close = nullptr;
    QUndoGroup *m_undoGroup;
    QString m_lastMessage;
};

} // namespace md
