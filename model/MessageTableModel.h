#pragma once

#include "AdminService.h"

#include <QAbstractTableModel>
#include <QJsonObject>

namespace md {

// Messages read from a topic (one query's result). Keys, values and headers
// show as UTF-8 text, pretty JSON or hex, chosen by the display mode; the raw
// bytes are under RawRole (an invalid QVariant for null). Exports write JSON or
// CSV atomically (a failed export leaves any existing file untouched).
class MessageTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageTableModel)
public:
    enum Column { Partition, Offset, Timestamp, Key, Value, Headers, ColumnCount };
    enum class DisplayMode { Text, Json, Hex };
    Q_ENUM(DisplayMode)
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RawRole = Qt::UserRole + 2;

    explicit MessageTableModel(QObject *parent = nullptr);

    void setMessages(const QList<KafkaMessage> &messages);
    // A search's next batch of matches: one insert for the whole batch.
    void appendMessages(const QList<KafkaMessage> &messages);
    const QList<KafkaMessage> &messages() const { return m_messages; }
    const KafkaMessage *messageAt(int row) const;

    DisplayMode displayMode() const { return m_mode; }
    void setDisplayMode(DisplayMode mode);

    // Bytes as shown: "(null)" for null; Text: UTF-8 (invalid bytes replaced);
    // Json: indented when the bytes are a JSON document, else as Text; Hex: "0a ff".
    static QString render(const std::optional<QByteArray> &bytes, DisplayMode mode);
    // One message as text for the clipboard (every field, in the given mode).
    static QString describe(const KafkaMessage &message, DisplayMode mode);
    // One message as the JSON export writes it (one element of its array).
    static QJsonObject toJson(const KafkaMessage &message);

    // Exports `rows` (every message when empty). JSON: an array of objects;
    // bytes as a UTF-8 string when valid, else {"base64": ...}; null as null.
    // CSV (RFC 4180): topic,partition,offset,timestamp,key,value,headers; null
    // is an empty field, empty is "" ; non-UTF-8 bytes as base64:<data>.
    bool exportJson(const QString &path, QString *error, const QList<int> &rows = {}) const;
    bool exportCsv(const QString &path, QString *error, const QList<int> &rows = {}) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<const KafkaMessage *> selected(const QList<int> &rows, QString *error) const;

    QList<KafkaMessage> m_messages;
    DisplayMode m_mode = DisplayMode::Text;
};

} // namespace md
