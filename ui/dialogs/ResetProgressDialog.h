#pragma once

#include "engine/mirror/JobProgress.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QDialog>

#include <functional>

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
    // Answers the confirmation (tests); returns true to go ahead.
    using ConfirmHook = std::function<bool(const QString &text)>;

    explicit ResetProgressDialog(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~ResetProgressDialog() override; // never waits: a call under way finishes unseen

    const MirrorJobSpec &spec() const { return m_spec; }
    void setConfirmHook(const ConfirmHook &hook) { m_confirmHook = hook; }
    // Non-empty: Reset is unavailable and the reason is shown (e.g. this window runs the job).
    void setBlockedReason(const QString &reason);
    QString blockedReason() const { return m_blockedReason; }

    ResetRequest request() const; // what the controls say now
    const JobProgress &plan() const { return m_plan; }
    bool hasCurrentPlan() const { return m_havePlan && !m_stale; }
    bool isBusy() const { return m_busy; }
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
    void setBusy(bool busy, const QString &text = {});
    void setStatus(const QString &text, bool error);
    void updateButtons();
    bool confirm(const QString &text);
    QString targetText(const ResetRequest &request) const;

    MirrorJobSpec m_spec;
    ConfirmHook m_confirmHook;
    QString m_blockedReason;
    JobProgress m_plan;
    ResetRequest m_planRequest;
    bool m_havePlan = false;
    bool m_stale = false;
    bool m_busy = false;
    bool m_previewAfterReset = false;
    quint64 m_generation = 0;

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
