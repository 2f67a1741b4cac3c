#pragma once

#include "engine/query/MessageSearch.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace md {

// The message browser's search: a condition on the key, the value or a header
// (contains, regular expression, or a JSON path predicate such as
// `$.customer.id == 42`), Search and Cancel in one row; match case and a time
// range in a second row shown on demand (the browser shares a pane half a
// laptop screen high). Progress (records scanned, matches) goes out as text
// for the panel's status line. The panel that
// holds it says where to search (topic, partition, start, match limit) and
// shows the matches as they stream in.
class MessageSearchBar final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageSearchBar)
public:
    explicit MessageSearchBar(QWidget *parent = nullptr);
    ~MessageSearchBar() override;

    // The filter as entered; nullopt with *error naming the field at fault.
    std::optional<MessageFilter> filter(QString *error) const;
    // Runs a search (a running one is cancelled first). Matches arrive through matchesFound.
    void start(const SearchSpec &spec);
    void cancel();
    // Drops the running search: nothing more arrives from it, not even its result
    // (a read of the browser replaces what the table shows).
    void abandon();
    bool isSearching() const;

    QComboBox *fieldBox() const { return m_field; }
    QLineEdit *headerEdit() const { return m_header; }
    QComboBox *matchBox() const { return m_match; }
    QLineEdit *textEdit() const { return m_text; }
    QCheckBox *caseBox() const { return m_case; }
    QCheckBox *fromBox() const { return m_fromOn; }
    QDateTimeEdit *fromEdit() const { return m_from; }
    QCheckBox *toBox() const { return m_toOn; }
    QDateTimeEdit *toEdit() const { return m_to; }
    QPushButton *searchButton() const { return m_search; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QToolButton *optionsButton() const { return m_optionsButton; }
    QWidget *optionsRow() const { return m_options; }
    // "1,200 of 5,000 records scanned, 3 matching", then the result's summary.
    QString progressText() const { return m_progressText; }

Q_SIGNALS:
    // Search pressed (or Return in the text): the panel answers with start().
    void searchRequested();
    void matchesFound(const QList<md::KafkaMessage> &matches);
    void progressChanged(const QString &text);
    void finished(const md::SearchResult &result);

private:
    void updateControls();
    void showProgress(const SearchProgress &progress);

    QComboBox *m_field;
    QLineEdit *m_header;
    QComboBox *m_match;
    QLineEdit *m_text;
    QCheckBox *m_case;
    QCheckBox *m_fromOn;
    QDateTimeEdit *m_from;
    QCheckBox *m_toOn;
    QDateTimeEdit *m_to;
    QPushButton *m_search;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QToolButton *m_optionsButton;
    QWidget *m_options; // match case and the time range, shown on demand
    QString m_progressText;
    std::unique_ptr<MessageSearchJob> m_job;
};

} // namespace md
