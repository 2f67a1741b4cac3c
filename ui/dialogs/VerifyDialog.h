#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/verify/Verifier.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace md {

class VerifyJob;
class VerifyTableModel;
struct DifferenceRecords;

// "Verify…" of a job, the GUI twin of `mirrordesk verify`: Start compares the
// job's source partitions with the target record by record on the thread pool
// (VerifyJob), one row per partition with its records compared live and then
// its verdict; Cancel answers at once, even while a cluster does not answer
// (the run ends on its own in the background). Selecting a
// Different row reads the two records of its first difference (source and
// target offset) and shows them side by side, "missing" for a side without
// one. Non-modal; closing it cancels a run and never waits.
class VerifyDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyDialog)
public:
    static constexpr int ReadTimeoutMs = 10000;

    explicit VerifyDialog(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~VerifyDialog() override; // cancels a run; never waits

    const MirrorJobSpec &spec() const { return m_spec; }
    // The run's options (tests shorten the timeouts); the topic filter comes from the dialog's field.
    void setOptions(const VerifyOptions &options) { m_options = options; }
    void setTopicFilter(const QString &pattern);

    bool isRunning() const { return m_job != nullptr; }
    const VerifyReport &report() const { return m_report; }
    VerifyTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancel; }
    QString summaryText() const;
    QString statusText() const;
    QString sourceRecordText() const;
    QString targetRecordText() const;
    QString differenceText() const;

public Q_SLOTS:
    void start();
    void cancel();
    // Shows the first difference of the model's row (a source row), reading both records.
    void showDifference(int modelRow);

Q_SIGNALS:
    void finished(const md::VerifyReport &report);
    void differenceShown(); // both records (or "missing") are in the side-by-side view

private:
    void finish(const VerifyReport &report);
    void showRecords(quint64 generation, const PartitionVerdict &verdict, const DifferenceRecords &records);
    void selectionChanged();
    void updateStatus();
    void updateButtons();

    MirrorJobSpec m_spec;
    VerifyOptions m_options;
    VerifyJob *m_job = nullptr;
    VerifyReport m_report;
    quint64 m_generation = 0; // drops a record read for an earlier selection
    qint64 m_doneCount = 0;

    QLineEdit *m_topics = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_busyBar = nullptr;
    QLabel *m_status = nullptr;
    VerifyTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_difference = nullptr;
    QLabel *m_sourceTitle = nullptr;
    QLabel *m_targetTitle = nullptr;
    QPlainTextEdit *m_sourceRecord = nullptr;
    QPlainTextEdit *m_targetRecord = nullptr;
};

} // namespace md
