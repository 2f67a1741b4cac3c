#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/cutover/CutoverTask.h"

#include <QDialog>

#include <functional>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace md {

// Job > Cut Over…, the window's twin of `mirrordesk cutover`: the options
// (who to fence, which groups, how long to wait), Dry Run for the drift
// report, Cut Over for the five steps shown live, Cancel between steps (the
// cutover is recorded as interrupted and resumes when started again), Roll
// Back to remove the fence, and the report at the end. The job it drives is
// the window's: running already, or started for the cutover.
class CutoverDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CutoverDialog)
public:
    using ConfirmHook = std::function<bool(const QString &text)>;

    CutoverDialog(const MirrorJobSpec &spec, CutoverTask::JobProvider provider, QWidget *parent = nullptr);
    ~CutoverDialog() override;

    void setConfirmHook(const ConfirmHook &hook) { m_confirmHook = hook; }
    void setFencePrincipals(const QString &principals); // also selects "these principals"
    void setSettleSeconds(int seconds);

    QTreeWidget *steps() const { return m_steps; }
    QTreeWidget *findings() const { return m_findings; }
    QPlainTextEdit *report() const { return m_report; }
    QPushButton *dryRunButton() const { return m_dryRun; }
    QPushButton *cutoverButton() const { return m_cutover; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *rollbackButton() const { return m_rollback; }
    bool isBusy() const { return m_task != nullptr; }
    QString statusText() const;
    const CutoverOutcome &outcome() const { return m_outcome; }

public Q_SLOTS:
    // While a cutover runs: asks, then cancels it (recorded, resumable) and closes.
    void reject() override;
    void dryRun();
    void startCutover();
    void cancelCutover();
    void rollback();

Q_SIGNALS:
    void finished(const md::CutoverOutcome &outcome);

private:
    enum class Run { DryRun, Cutover, Rollback };
    void begin(Run run);
    std::optional<CutoverOptions> options();
    void showStep(CutoverStep step, CutoverStepState state, const QString &text);
    void showPreflight(const CutoverPreflight &preflight);
    void showOutcome(const CutoverOutcome &outcome);
    void resetSteps();
    void updateButtons();
    void setStatus(const QString &text, bool error = false);
    bool confirm(const QString &text);

    MirrorJobSpec m_spec;
    CutoverTask::JobProvider m_provider;
    ConfirmHook m_confirmHook;
    CutoverTask *m_task = nullptr;
    Run m_run = Run::DryRun;
    CutoverOutcome m_outcome;

    QButtonGroup *m_fenceMode = nullptr;
    QLineEdit *m_principals = nullptr;
    QLineEdit *m_groups = nullptr;
    QSpinBox *m_timeout = nullptr;
    QSpinBox *m_settle = nullptr;
    QTreeWidget *m_steps = nullptr;
    QTreeWidget *m_findings = nullptr;
    QLabel *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QPushButton *m_dryRun = nullptr;
    QPushButton *m_cutover = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_rollback = nullptr;
};

} // namespace md
