#pragma once

#include "engine/query/MessageCopier.h"
#include "engine/schema/RegistryCompare.h"

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
// or the broker's error. Records are copied byte for byte, so before copying
// selected records in the registry's wire format it looks their schema ids up
// on both clusters' registries (in the background) and, when the other
// cluster's registry lacks one or holds it as another schema, lists them and
// waits: "Copy anyway" copies, Close cancels. A range is read only as it is
// copied: the ids its records carry arrive with the copy's progress and are
// looked up the same way while it runs (one lookup at a time, each id once),
// and what the other registry lacks is listed beside the progress and kept
// with the result.
class CopyMessagesDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyMessagesDialog)
public:
    // `base`: clusters, and either messages or sourceTopic/sourcePartition with a default range.
    CopyMessagesDialog(const CopySpec &base, const QStringList &targetTopics, QWidget *parent = nullptr);
    ~CopyMessagesDialog() override;

    void setTargetTopic(const QString &topic);
    void setRange(qint64 first, qint64 last); // range mode only
    // Starts the copy with the dialog's settings; false (and the reason shown)
    // when they are wrong. Selected records in the wire format are first
    // checked against the registries (schemaCheckFinished); when that warns,
    // the copy waits for start() again ("Copy anyway").
    bool start();
    void cancel();
    bool isRunning() const;

    QString resultText() const;
    QProgressBar *progressBar() const { return m_progress; }
    QComboBox *targetTopicBox() const { return m_target; }
    // Selected records before the copy, or a range copy's ids while it runs or after.
    bool isCheckingSchemas() const { return m_checkingSchemas || m_rangeChecking || !m_rangePending.isEmpty(); }
    const CopySchemaCheck &schemaCheck() const { return m_schemaCheck; }
    QString schemaWarningText() const;
    QString startButtonText() const;

Q_SIGNALS:
    void copyFinished(const md::CopyResult &result);
    // schemaCheck() holds the answer. Selected records: the copy started unless
    // it warns. A range: after each lookup of newly read ids (schemaCheck() has
    // every id looked up so far).
    void schemaCheckFinished();

protected:
    void reject() override; // Cancel/Escape while copying cancels the copy first

private:
    void fitHeight(); // tall enough for every wrapped line at the current width
    void startCopy(const CopySpec &spec);
    void onSchemaCheck(const CopySpec &spec, const CopySchemaCheck &check);
    void showSchemaCheck();
    void onRangeSchemaIds(const QList<int> &ids);
    void checkRangeSchemaIds();
    void onProgress(qint64 done, qint64 total);
    void onFinished(const CopyResult &result);

    CopySpec m_base;
    MessageCopyJob *m_job = nullptr;
    QComboBox *m_target;
    QLineEdit *m_first = nullptr;
    QLineEdit *m_last = nullptr;
    QProgressBar *m_progress;
    QLabel *m_result;
    QLabel *m_schemaWarning;
    QPushButton *m_start;
    QPushButton *m_close;
    bool m_checkingSchemas = false;
    bool m_schemasChecked = false; // once per dialog: the registries do not depend on the target topic
    CopySchemaCheck m_schemaCheck;
    // A range copy's ids: read but not yet looked up, and whether a lookup
    // runs; a new copy bumps the generation, so older answers are dropped.
    QList<int> m_rangePending;
    bool m_rangeChecking = false;
    int m_copyGeneration = 0;
};

} // namespace md
