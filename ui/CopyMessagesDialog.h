#pragma once

#include "MessageCopier.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace md {

// Copies records to a topic on the other cluster as a one-off job
// (MessageCopyJob, a background task): picks the target topic (and, for a
// range, the partition's first and last offset), then shows progress with a
// Cancel button and ends with a plain result ("copied 500 records to X on dr")
// or the broker's error.
class CopyMessagesDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyMessagesDialog)
public:
    // `base`: clusters, and either messages or sourceTopic/sourcePartition with a default range.
    CopyMessagesDialog(const CopySpec &base, const QStringList &targetTopics, QWidget *parent = nullptr);
    ~CopyMessagesDialog() override;

    void setTargetTopic(const QString &topic);
    void setRange(qint64 first, qint64 last); // range mode only
    // Starts the copy with the dialog's settings; false (and the reason shown) when they are wrong.
    bool start();
    void cancel();
    bool isRunning() const;

    QString resultText() const;
    QProgressBar *progressBar() const { return m_progress; }
    QComboBox *targetTopicBox() const { return m_target; }

Q_SIGNALS:
    void copyFinished(const md::CopyResult &result);

protected:
    void reject() override; // Cancel/Escape while copying cancels the copy first

private:
    void onProgress(qint64 done, qint64 total);
    void onFinished(const CopyResult &result);

    CopySpec m_base;
    MessageCopyJob *m_job = nullptr;
    QComboBox *m_target;
    QLineEdit *m_first = nullptr;
    QLineEdit *m_last = nullptr;
    QProgressBar *m_progress;
    QLabel *m_result;
    QPushButton *m_start;
    QPushButton *m_close;
};

} // namespace md
