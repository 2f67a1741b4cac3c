#pragma once

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "ui/dialogs/PreviewApply.h"

#include <QDialog>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace md {

class FailoverPlanModel;

// "Fail Over Consumer Groups…" of a job, the GUI twin of `mirrordesk
// failover`: pick the source groups (the profile's selection, narrowed by a
// regex), Preview reads the job's offset map and shows per group and
// partition the source offset, its exact translation on the target, the
// target group's offset now, what the group reads again and what has not
// reached the target; Fail Over writes the previewed translations to the same
// groups on the target (after a confirmation). Groups with active members on
// the target are refused, named; a target group is never moved backwards
// unless "Allow rewinds" is set. Every Kafka call runs on the thread pool; a
// result that comes back after the dialog closed is dropped.
class FailoverDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FailoverDialog)
public:
    static constexpr int TimeoutMs = 20000;
    using ConfirmHook = PreviewApply::ConfirmHook;

    explicit FailoverDialog(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~FailoverDialog() override; // never waits

    const MirrorJobSpec &spec() const { return m_spec; }
    void setConfirmHook(const ConfirmHook &hook) { m_flow.setConfirmHook(hook); }
    void setGroupPattern(const QString &pattern);
    void setAllowRewind(bool allow);

    const GroupSyncPlan &plan() const { return m_plan; }
    const CopyLag &lag() const { return m_lag; }
    bool hasCurrentPlan() const { return m_flow.isCurrent(); }
    bool isBusy() const { return m_flow.isBusy(); }
    FailoverPlanModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *failoverButton() const { return m_apply; }
    QPushButton *cancelPreviewButton() const { return m_cancelPreview; }
    QString summaryText() const;
    QString statusText() const;

public Q_SLOTS:
    void preview();
    // Answers at once: the preview's late answer is dropped, and its reading
    // stops after its current step. Writing (Fail Over) cannot be cancelled.
    void cancelPreview();
    void failover();

Q_SIGNALS:
    void previewFinished(bool ok);
    void failoverFinished(bool ok, const QString &message);

private:
    struct Preview {
        bool ok = false;
        QString error;
        GroupSyncPlan plan;
        CopyLag lag;
    };
    void showPreview(quint64 generation, const Preview &preview);
    void showOutcome(const GroupSyncOutcome &outcome);
    GroupSyncOptions options() const;
    void optionsChanged();
    void updateButtons();

    MirrorJobSpec m_spec;
    PreviewApply m_flow;
    GroupSyncPlan m_plan;
    CopyLag m_lag;
    GroupSyncOptions m_planOptions;
    bool m_previewing = false;
    std::shared_ptr<std::atomic_bool> m_previewCancel;

    QLineEdit *m_groups = nullptr;
    QLabel *m_groupsError = nullptr;
    QCheckBox *m_allowRewind = nullptr;
    QPushButton *m_preview = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_cancelPreview = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busyBar = nullptr;
    FailoverPlanModel *m_model = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace md
