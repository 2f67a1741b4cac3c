#pragma once

#include "engine/mirror/JobProgress.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "ui/dialogs/PreviewApply.h"

#include <QDialog>

class QButtonGroup;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSortFilterProxyModel;
class QTableView;

namespace md {

class ProgressTableModel;

// "Reset Progress…" of a job, the GUI twin of `mirrordesk reset`: choose where
// the job's group restarts (earliest, latest, a time) and for which topics,
// Preview shows per partition the committed offset now, the new position and
// what the next run copies (planReset), Reset writes the previewed plan as the
// group's committed offsets (applyReset) after a confirmation. Every Kafka call
// runs on the thread pool; a result that comes back after the dialog closed is
// dropped. Kafka refuses nothing here: applyReset does (active group members),
// and its words are shown.
class ResetProgressDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResetProgressDialog)
public:
    static constexpr int TimeoutMs = 15000;
    using ConfirmHook = PreviewApply::ConfirmHook;

    explicit ResetProgressDialog(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~ResetProgressDialog() override; // never waits: a call under way finishes unseen

    const MirrorJobSpec &spec() const { return m_spec; }
    void setConfirmHook(const ConfirmHook &hook) { m_flow.setConfirmHook(hook); }
    // Non-empty: Reset is unavailable and the reason is shown (e.g. this window runs the job).
    void setBlockedReason(const QString &reason);
    QString blockedReason() const { return m_blockedReason; }

    ResetRequest request() const; // what the controls say now
    const JobProgress &plan() const { return m_plan; }
    bool hasCurrentPlan() const { return m_flow.isCurrent(); }
    bool isBusy() const { return m_flow.isBusy(); }
    ProgressTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString summaryText() const;
    QString statusText() const;

public Q_SLOTS:
    void preview(); // planReset for request(), in the background
    void reset();   // asks, then applyReset of the previewed plan, in the background

Q_SIGNALS:
    void previewFinished(bool ok);
    void resetFinished(bool ok, const QString &message);

private:
    void showPlan(quint64 generation, const JobProgress &plan);
    void showOutcome(const ResetOutcome &outcome);
    void optionsChanged();
    void updateButtons();
    QString targetText(const ResetRequest &request) const;

    MirrorJobSpec m_spec;
    PreviewApply m_flow;
    QString m_blockedReason;
    JobProgress m_plan;
    ResetRequest m_planRequest;

    QButtonGroup *m_to;
    QRadioButton *m_earliest;
    QRadioButton *m_latest;
    QRadioButton *m_timestamp;
    QDateTimeEdit *m_time;
    QLineEdit *m_topics;
    QLabel *m_topicsError;
    QPushButton *m_preview;
    QProgressBar *m_busyBar;
    ProgressTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_summary;
    QLabel *m_blocked;
    QLabel *m_status;
    QPushButton *m_reset;
};

} // namespace md
