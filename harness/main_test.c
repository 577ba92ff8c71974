int rvlab_test_main(void);
int main(void) { return rvlab_test_main(); }
