// Linked into every MIOpen test binary: before any test runs, points MIOPEN_USER_DB_PATH at a
// fresh directory of this process (unless the test run already set one explicitly with
// MIOPEN_TEST_KEEP_DB_PATH=1), and removes it at exit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

class UserDbEnvironment : public ::testing::Environment
{
public:
    void SetUp() override
    {
        const char* keep = std::getenv("MIOPEN_TEST_KEEP_DB_PATH");
        if(keep != nullptr && std::string(keep) == "1")
            return;
        std::string tmpl = (std::filesystem::temp_directory_path() / "miopen-test-XXXXXX").string();
        if(mkdtemp(tmpl.data()) == nullptr)
            FAIL() << "mkdtemp failed";
        _dir = tmpl;
        setenv("MIOPEN_USER_DB_PATH", _dir.c_str(), 1);
    }
    void TearDown() override
    {
        if(!_dir.empty())
        {
            std::error_code ec;
            std::filesystem::remove_all(_dir, ec);
        }
    }

private:
    std::string _dir;
};

const auto* const kUserDbEnvironment =
    ::testing::AddGlobalTestEnvironment(new UserDbEnvironment());

} // namespace
